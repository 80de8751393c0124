/// The cookies a request carries, parsed from its `Cookie` headers.
///
/// Parsing is forgiving on purpose: a malformed pair is skipped rather than failing the request,
/// because browsers send whatever other sites on the domain left behind.
public struct Cookies: Sendable, Equatable {
    /// Every cookie in the order sent; a name sent twice keeps both.
    public private(set) var pairs: [(name: String, value: String)]

    /// Parses every `Cookie` header; malformed pairs are skipped, not fatal.
    public init(headerValues: some Sequence<String>) {
        var pairs: [(String, String)] = []
        for header in headerValues {
            for piece in header.split(separator: ";") {
                guard let equals = piece.firstIndex(of: "=") else { continue }
                let name = piece[..<equals].trimmingSpaces()
                var value = piece[piece.index(after: equals)...].trimmingSpaces()
                if value.count >= 2, value.first == "\"", value.last == "\"" {
                    value = value.dropFirst().dropLast()
                }
                guard !name.isEmpty else { continue }
                pairs.append((String(name), String(value)))
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

extension Substring {
    /// Without the spaces and tabs around it, as header values and list entries are written.
    func trimmingSpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
