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

    private static func encode(_ value: String, spaceAsPlus: Bool) -> String {
        var encoded = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " ") where spaceAsPlus:
                encoded += "+"
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return encoded
    }
}
