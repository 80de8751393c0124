import Foundation

/// The few encodings a MIME message needs: encoded words for headers (RFC 2047) and
/// quoted-printable for bodies (RFC 2045), which keeps a message readable in the mail folder.
enum MIMEEncoding {
    /// A header's text: as it is when it is printable ASCII, else `=?utf-8?B?…?=` words.
    static func headerText(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) { return text }
        return encodedWords(text)
    }

    /// A display name: quoted when it is ASCII, encoded when it is not.
    static func phrase(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return encodedWords(text)
    }

    /// Base64 encoded words of at most 39 bytes each (a header line stays under 78 characters), split
    /// between characters, never inside one.
    private static func encodedWords(_ text: String) -> String {
        var words: [String] = []
        var chunk = ""
        for character in text {
            if chunk.utf8.count + String(character).utf8.count > 39 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?utf-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }

    /// `text` in quoted-printable, with CRLF line ends and lines of at most 76 characters.
    static func quotedPrintable(_ text: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        var lines: [String] = []
        for line in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
            let bytes = Array(line.utf8)
            var encoded = ""
            var width = 0
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let literal = (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "=")) || (byte == 32 && !isLast) || (byte == 9 && !isLast)
                let piece = literal ? String(UnicodeScalar(byte)) : String(format: "=%02X", byte)
                // A line ends at 76 characters; one that goes on needs room for its soft break.
                if width + piece.count > (isLast ? 76 : 75) {
                    encoded += "=\r\n"
                    width = 0
                }
                encoded += piece
                width += piece.count
            }
            lines.append(encoded)
        }
        return lines.joined(separator: "\r\n")
    }
}
