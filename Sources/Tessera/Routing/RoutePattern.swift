/// A path pattern such as `/products/{id}/reviews`: literal segments and `{name}` captures.
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    public let segments: [Segment]

    public init(_ pattern: String) {
        segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { piece in
            piece.hasPrefix("{") && piece.hasSuffix("}") ? .parameter(String(piece.dropFirst().dropLast())) : .literal(String(piece))
        }
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var parameterCount: Int {
        segments.filter { if case .parameter = $0 { true } else { false } }.count
    }

    public var description: String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter(let name): "{\(name)}"
            }
        }.joined(separator: "/")
    }

    /// The captured segments if `path` matches.
    func match(_ pathSegments: [Substring]) -> [String]? {
        guard pathSegments.count == segments.count else { return nil }
        var captures: [String] = []
        for (segment, value) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let text): guard text == value else { return nil }
            case .parameter: captures.append(String(value))
            }
        }
        return captures
    }

    /// Whether some path would match both patterns.
    func overlaps(_ other: RoutePattern) -> Bool {
        guard segments.count == other.segments.count else { return false }
        for (a, b) in zip(segments, other.segments) {
            if case .literal(let x) = a, case .literal(let y) = b, x != y { return false }
        }
        return true
    }

    /// The path for `values`, percent-encoded.
    func path(with values: [String]) -> String {
        var remaining = values[...]
        return "/" + segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter: URLEncoding.pathSegment(remaining.popFirst() ?? "")
            }
        }.joined(separator: "/")
    }
}
