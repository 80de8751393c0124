/// The patterned routes as a tree of path segments, so that a request walks its own path once
/// instead of trying every pattern: each node branches on literal segments, and on one `{…}`
/// that takes any non-empty segment.
///
/// Where a literal and a parameter both fit a segment, both branches are walked, and every
/// route whose whole pattern matches is reported with its place in the order the app
/// registered them, which is the order the ``Router`` decides in.
final class RouteTrie: Sendable {
    private final class Node: Sendable {
        let literals: [(segment: String, node: Node)]
        let parameter: Node?
        /// The routes whose pattern ends here, with their place in the app's registration order.
        let routes: [(order: Int, entry: RouteEntry)]

        init(literals: [(segment: String, node: Node)], parameter: Node?, routes: [(order: Int, entry: RouteEntry)]) {
            self.literals = literals
            self.parameter = parameter
            self.routes = routes
        }
    }

    private let root: Node

    /// `entries` in registration order.
    init(_ entries: [RouteEntry]) {
        root = Self.node(for: entries.enumerated().map { (order: $0.offset, entry: $0.element) }, depth: 0)
    }

    private static func node(for routes: [(order: Int, entry: RouteEntry)], depth: Int) -> Node {
        var ending: [(order: Int, entry: RouteEntry)] = []
        var literals: [(segment: String, routes: [(order: Int, entry: RouteEntry)])] = []
        var parameters: [(order: Int, entry: RouteEntry)] = []
        for route in routes {
            let segments = route.entry.pattern.segments
            guard depth < segments.count else {
                ending.append(route)
                continue
            }
            switch segments[depth] {
            case .literal(let text):
                if let index = literals.firstIndex(where: { $0.segment == text }) {
                    literals[index].routes.append(route)
                } else {
                    literals.append((text, [route]))
                }
            case .parameter:
                parameters.append(route)
            }
        }
        return Node(
            literals: literals.map { ($0.segment, node(for: $0.routes, depth: depth + 1)) },
            parameter: parameters.isEmpty ? nil : node(for: parameters, depth: depth + 1),
            routes: ending
        )
    }

    /// Calls `visit` with every route whose pattern matches `path`, its place in the app's
    /// registration order, and the segments its parameters captured; the caller decides by that
    /// order. An empty segment (`//`, a trailing `/`) matches no literal and no parameter.
    func forEachMatch(of path: String, _ visit: (_ order: Int, RouteEntry, _ captures: [String]) -> Void) {
        let bytes = path.utf8
        // The segments after the first slash, as the patterns count them.
        guard let start = bytes.firstIndex(of: UInt8(ascii: "/")).map(bytes.index(after:)) else { return }
        var captures: [String] = []
        Self.walk(root, path, from: start, captures: &captures, visit)
    }

    private static func walk(
        _ node: Node, _ path: String, from start: String.Index, captures: inout [String],
        _ visit: (Int, RouteEntry, [String]) -> Void
    ) {
        let bytes = path.utf8
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        let segment = path[start..<end]
        let next = end == bytes.endIndex ? nil : bytes.index(after: end)
        func descend(_ child: Node) {
            if let next {
                walk(child, path, from: next, captures: &captures, visit)
            } else {
                for route in child.routes { visit(route.order, route.entry, captures) }
            }
        }
        guard !segment.isEmpty else { return }
        for literal in node.literals where literal.segment == segment {
            descend(literal.node)
        }
        if let parameter = node.parameter {
            captures.append(String(segment))
            descend(parameter)
            captures.removeLast()
        }
    }
}
