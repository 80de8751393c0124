import Foundation

/// Base64 with the URL- and cookie-safe alphabet (`-`, `_`) and no padding (RFC 4648 §5).
public enum Base64URL {
    /// `data` in base64url without padding, safe in cookies, URLs and file names.
    public static func encode(_ data: Data) -> String {
        // Byte by byte over the ASCII output: Foundation's string replacing costs more than the
        // encoding itself, and sessions encode on every request that sets a cookie.
        let base64 = data.base64EncodedData()
        return String(unsafeUninitializedCapacity: base64.count) { buffer in
            var count = 0
            for byte in base64 where byte != UInt8(ascii: "=") {
                buffer[count] = switch byte {
                case UInt8(ascii: "+"): UInt8(ascii: "-")
                case UInt8(ascii: "/"): UInt8(ascii: "_")
                default: byte
                }
                count += 1
            }
            return count
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
