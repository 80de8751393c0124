/// A path pattern such as `/products/{id}/reviews`: literal segments and `{name}` captures.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One piece of a pattern, between slashes.
    public enum Segment: Sendable, Hashable {
        /// Text the path must have at this place, exactly.
        case literal(String)
        /// A `{name}` capture: whatever the path has at this place, for the route's parameters.
        case parameter(String)
    }

    /// The pattern's pieces, in order.
    public let segments: [Segment]

    /// Parses `pattern`: each `{name}` piece is a capture and the rest are literals; empty pieces
    /// (a trailing or doubled slash) are ignored.
    public init(_ pattern: String) {
        segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { piece in
            piece.hasPrefix("{") && piece.hasSuffix("}") ? .parameter(String(piece.dropFirst().dropLast())) : .literal(String(piece))
        }
    }

    /// Lets a route take its pattern as a string literal, `"/products/{id}"`.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// How many `{…}` captures the pattern has; a pattern without any matches one path only, which
    /// the router looks up directly.
    public var parameterCount: Int {
        segments.filter { if case .parameter = $0 { true } else { false } }.count
    }

    /// The pattern as written, with one leading slash and none trailing: `/products/{id}`.
    public var description: String {
        "/"
            + segments.map { segment in
                switch segment {
                case .literal(let text): text
                case .parameter(let name): "{\(name)}"
                }
            }.joined(separator: "/")
    }

    /// The path for `values`, percent-encoded.
    func path(with values: [String]) -> String {
        // Every link of every page comes here: one string grown in place, no array of parts.
        guard !segments.isEmpty else { return "/" }
        var remaining = values.makeIterator()
        var path = ""
        for segment in segments {
            path += "/"
            switch segment {
            case .literal(let text): path += text
            case .parameter: path += URLEncoding.pathSegment(remaining.next() ?? "")
            }
        }
        return path
    }
}
