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
    /// and compare schemes case-insensitively, so the check does too.
    static func isDangerous(_ url: some Collection<UInt8>) -> Bool {
        var scheme: [UInt8] = []
        for byte in url {
            if byte == UInt8(ascii: ":") { break }
            if byte <= 0x20 { continue }
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { return false }
            scheme.append(byte | (byte >= 65 && byte <= 90 ? 0x20 : 0))
            if scheme.count > 10 { return false }
        }
        guard url.contains(UInt8(ascii: ":")) else { return false }
        return scheme == Array("javascript".utf8) || scheme == Array("data".utf8) || scheme == Array("vbscript".utf8)
    }
}
