import Foundation

/// Percent-encoding for the two places apps put values into URLs, so every module encodes alike.
public enum URLEncoding {
    /// One path segment: everything but unreserved characters is encoded, `/` included, and a
    /// segment that is `.` or `..` is encoded too, so it can never act as a dot segment.
    public static func pathSegment(_ value: String) -> String {
        let encoded = encode(value, spaceAsPlus: false)
        return encoded == "." || encoded == ".." ? encoded.replacingOccurrences(of: ".", with: "%2E") : encoded
    }

    /// One query-string value (`a+b%26c`), as forms send it: a space becomes `+`.
    public static func queryValue(_ value: String) -> String {
        encode(value, spaceAsPlus: true)
    }

    /// A path (`/orders/rows?status=shipped`) as one query value, appended to `bytes` while a
    /// page is written: encoded as ``queryValue(_:)`` encodes, except `/`, which a query may carry
    /// as it is (RFC 3986 §3.4), so the path stays readable. The result is unreserved
    /// characters, `/`, `%` and `+`: safe in any attribute.
    static func appendPathAsQueryValue(_ path: String, to bytes: inout [UInt8]) {
        append(path, spaceAsPlus: true, keepingSlashes: true, to: &bytes)
    }

    private static func encode(_ value: String, spaceAsPlus: Bool) -> String {
        // Most values (an id, a slug) need nothing, and are returned as they are.
        if value.utf8.allSatisfy(isUnreserved) { return value }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        append(value, spaceAsPlus: spaceAsPlus, keepingSlashes: false, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// RFC 3986's unreserved characters, which no part of a URL encodes.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Runs of bytes that stay as they are go in whole: most values are mostly such bytes.
    private static func append(_ value: String, spaceAsPlus: Bool, keepingSlashes: Bool, to bytes: inout [UInt8]) {
        var value = value
        value.withUTF8 { utf8 in
            var kept = 0
            for index in utf8.indices {
                let byte = utf8[index]
                if isUnreserved(byte) || (byte == UInt8(ascii: "/") && keepingSlashes) { continue }
                bytes.append(contentsOf: utf8[kept..<index])
                kept = index + 1
                if byte == UInt8(ascii: " ") && spaceAsPlus {
                    bytes.append(UInt8(ascii: "+"))
                } else {
                    bytes.append(UInt8(ascii: "%"))
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: utf8[kept...])
        }
    }
}
