import Foundation

/// Base64 with the URL- and cookie-safe alphabet (`-`, `_`) and no padding (RFC 4648 §5).
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` in base64url without padding, safe in cookies, URLs and file names.
    ///
    /// Written straight into the string: sessions encode on every request that sets a cookie and
    /// live regions on every region they render, and Foundation's encoding plus a pass to swap
    /// the alphabet cost more than the encoding itself. Up to 11 bytes make a string of at most
    /// 15 characters, which Swift keeps inline, with no allocation at all.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let count = bytes.count
        return String(unsafeUninitializedCapacity: (count * 4 + 2) / 3) { output in
            var written = 0
            var index = bytes.startIndex
            var remaining = count
            while remaining > 0 {
                let first = UInt32(bytes[index]); index = bytes.index(after: index)
                let second = remaining > 1 ? UInt32(bytes[index]) : 0
                if remaining > 1 { index = bytes.index(after: index) }
                let third = remaining > 2 ? UInt32(bytes[index]) : 0
                if remaining > 2 { index = bytes.index(after: index) }
                let group = first << 16 | second << 8 | third
                let characters = min(remaining, 3) + 1
                for position in 0..<characters {
                    output[written] = alphabet[Int(group >> (18 - 6 * UInt32(position)) & 0x3F)]
                    written += 1
                }
                remaining -= min(remaining, 3)
            }
            return written
        }
    }

    /// `nil` for anything that is not base64url.
    public static func decode(_ text: Substring) -> Data? {
        var base64: [UInt8] = []
        base64.reserveCapacity(text.utf8.count + 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                base64.append(byte)
            case UInt8(ascii: "-"): base64.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): base64.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        while base64.count % 4 != 0 { base64.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(base64))
    }
}
