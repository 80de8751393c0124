/// One text of a catalog entry, split at its placeholders: `"Order #{id} is placed"` is the
/// literal `Order #`, the placeholder `id`, and the literal ` is placed`.
///
/// A placeholder is a name in braces (`{count}`, `{name}`); any other brace is text. The catalog
/// compiler parses with this same type, so what it checks is what renders.
public struct MessagePattern: Sendable, Equatable, ExpressibleByStringLiteral {
    public enum Segment: Sendable, Equatable {
        case literal(String)
        case placeholder(String)
    }

    public let segments: [Segment]

    public init(_ text: String) {
        var segments: [Segment] = []
        var literal = ""
        var rest = Substring(text)
        while let brace = rest.firstIndex(of: "{") {
            literal += rest[..<brace]
            let afterBrace = rest.index(after: brace)
            let name = rest[afterBrace...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            let close = name.endIndex
            if !name.isEmpty, name.first?.isNumber == false, close < rest.endIndex, rest[close] == "}" {
                if !literal.isEmpty { segments.append(.literal(literal)) }
                literal = ""
                segments.append(.placeholder(String(name)))
                rest = rest[rest.index(after: close)...]
            } else {
                literal.append("{")
                rest = rest[afterBrace...]
            }
        }
        literal += rest
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The placeholders' names, in order of first use.
    public var placeholders: [String] {
        var names: [String] = []
        for case .placeholder(let name) in segments where !names.contains(name) { names.append(name) }
        return names
    }
}
