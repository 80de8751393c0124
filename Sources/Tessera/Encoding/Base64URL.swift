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
                let first = UInt32(bytes[index])
                index = bytes.index(after: index)
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

    /// The bytes `text` encodes; `nil` for anything that is not base64url without padding.
    ///
    /// Decoded straight from the text's UTF-8: a session cookie is decoded for every request
    /// that sends one.
    public static func decode(_ text: Substring) -> [UInt8]? {
        let utf8 = text.utf8
        let count = utf8.count
        guard count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 3 / 4)
        var group: UInt32 = 0
        var filled = 0
        for character in utf8 {
            let value = sextets[Int(character)]
            guard value != invalid else { return nil }
            group = group << 6 | UInt32(value)
            filled += 1
            if filled == 4 {
                bytes.append(UInt8(truncatingIfNeeded: group >> 16))
                bytes.append(UInt8(truncatingIfNeeded: group >> 8))
                bytes.append(UInt8(truncatingIfNeeded: group))
                group = 0
                filled = 0
            }
        }
        switch filled {
        case 2: bytes.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            bytes.append(UInt8(truncatingIfNeeded: group >> 10))
            bytes.append(UInt8(truncatingIfNeeded: group >> 2))
        default: break
        }
        return bytes
    }

    private static let invalid: UInt8 = 0xFF

    /// Each byte's value as a base64url digit, or ``invalid``.
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }()
}
