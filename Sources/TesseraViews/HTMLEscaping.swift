/// HTML escaping on bytes: runs of safe bytes are copied in one go, and the five characters that
/// matter (`& < > " '`) are replaced. The same escaping serves text and quoted attribute values.
public enum HTMLEscaping {
    /// Appends `source` to `output` with `& < > " '` escaped.
    @inlinable
    public static func append(_ source: some Collection<UInt8>, to output: inout [UInt8]) {
        var runStart = source.startIndex
        var index = source.startIndex
        while index != source.endIndex {
            let byte = source[index]
            // The five lie between `"` (0x22) and `>` (0x3E): letters, most of any text, skip
            // the switch after one comparison each way.
            guard byte >= 0x22, byte <= 0x3E else {
                index = source.index(after: index)
                continue
            }
            let replacement: StaticString?
            switch byte {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            default: replacement = nil
            }
            if let replacement {
                output.append(contentsOf: source[runStart..<index])
                replacement.withUTF8Buffer { output.append(contentsOf: $0) }
                runStart = source.index(after: index)
            }
            index = source.index(after: index)
        }
        output.append(contentsOf: source[runStart..<source.endIndex])
    }

    /// `text` escaped, as a `String`.
    public static func escape(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        append(Array(text.utf8), to: &output)
        return String(decoding: output, as: UTF8.self)
    }
}

/// The URL schemes that run code or smuggle content when put in `href` or `src`.
enum URLSafety {
    /// Browsers ignore ASCII whitespace and control characters inside a scheme (`java\tscript:`),
    /// and compare schemes case-insensitively, so the check does too. Every link of every page
    /// passes here, so the scheme is gathered on the stack, not in an array.
    static func isDangerous(_ url: some Collection<UInt8>) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: longestScheme) { scheme in
            var count = 0
            for byte in url {
                if byte == UInt8(ascii: ":") {
                    let name = UnsafeBufferPointer(rebasing: scheme[..<count])
                    return name.elementsEqual("javascript".utf8) || name.elementsEqual("data".utf8) || name.elementsEqual("vbscript".utf8)
                }
                if byte <= 0x20 { continue }
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { return false }
                guard count < longestScheme else { return false }
                scheme[count] = byte | (byte >= 65 && byte <= 90 ? 0x20 : 0)
                count += 1
            }
            return false
        }
    }

    /// The length of `javascript`, the longest scheme refused.
    private static let longestScheme = 10
}
