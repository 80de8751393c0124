/// The cookies a request carries, parsed from its `Cookie` headers.
///
/// Parsing is forgiving on purpose: a malformed pair is skipped rather than failing the request,
/// because browsers send whatever other sites on the domain left behind.
public struct Cookies: Sendable, Equatable {
    /// Every cookie in the order sent; a name sent twice keeps both.
    public private(set) var pairs: [(name: String, value: String)]

    /// Parses every `Cookie` header; malformed pairs are skipped, not fatal.
    ///
    /// Byte by byte over the UTF-8: every separator is ASCII, and a session cookie is a few
    /// hundred characters that every request parses, which `Character`s would walk by grapheme.
    public init(headerValues: some Sequence<String>) {
        var pairs: [(String, String)] = []
        for header in headerValues {
            for piece in header.utf8.split(separator: UInt8(ascii: ";")) {
                guard let equals = piece.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = piece[..<equals].trimmingSpaces()
                var value = piece[piece.index(after: equals)...].trimmingSpaces()
                if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                    value = value.dropFirst().dropLast()
                }
                guard !name.isEmpty else { continue }
                pairs.append((String(Substring(name)), String(Substring(value))))
            }
        }
        self.pairs = pairs
    }

    /// The first cookie called `name`. Browsers send the most specific path first.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Equal when the same pairs came in the same order.
    public static func == (lhs: Cookies, rhs: Cookies) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0 == $1 }
    }
}

extension Cookies {
    /// Calls `body` with each cookie's name and value in one `Cookie` header's bytes, trimmed
    /// and unquoted as ``init(headerValues:)`` reads them, until it returns `false`; whether it
    /// went through them all.
    static func scan(_ header: ArraySlice<UInt8>, _ body: (ArraySlice<UInt8>, ArraySlice<UInt8>) -> Bool) -> Bool {
        var start = header.startIndex
        while start < header.endIndex {
            let end = header[start...].firstIndex(of: UInt8(ascii: ";")) ?? header.endIndex
            let piece = header[start..<end]
            start = end < header.endIndex ? end + 1 : end
            guard let equals = piece.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = trimmed(piece[..<equals])
            var value = trimmed(piece[(equals + 1)...])
            if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                value = value.dropFirst().dropLast()
            }
            guard !name.isEmpty else { continue }
            if !body(name, value) { return false }
        }
        return true
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return bytes[bytes.endIndex...]
        }
        return bytes[first...last]
    }
}
