/// Matches a request to one route and runs it; nothing else.
///
/// A path that matches no route is a 404; one that matches only routes of other methods is a
/// 405 with `Allow`; `HEAD` is served by the `GET` route. Literal routes are tried before
/// patterned ones, so `/products/new` and `/products/{id}` can live side by side. A `GET` that
/// matches nothing goes to the fallback (static files), if there is one.
struct Router: Sendable {
    private let literalEntries: [String: [RouteEntry]]
    private let patternedEntries: [RouteEntry]
    private let fallback: (any HTTPResponder)?

    init(entries: [RouteEntry], fallback: (any HTTPResponder)?) {
        var literal: [String: [RouteEntry]] = [:]
        var patterned: [RouteEntry] = []
        for entry in entries {
            if entry.pattern.parameterCount == 0 {
                literal[entry.pattern.description, default: []].append(entry)
            } else {
                patterned.append(entry)
            }
        }
        literalEntries = literal
        patternedEntries = patterned
        self.fallback = fallback
    }

    /// The end of the middleware chain.
    @Sendable func respond(_ context: RequestContext) async throws -> Response {
        switch try match(context.request) {
        case .route(let entry, let captures):
            var context = context
            context.route = MatchedRoute(entry: entry, captures: captures)
            return try await entry.respond(context)
        case .fallback(let responder):
            return try await responder.respond(to: context.request)
        }
    }

    private enum Match {
        case route(RouteEntry, captures: [String])
        case fallback(any HTTPResponder)
    }

    /// Matching is synchronous; the only suspension point is the route's handler.
    private func match(_ request: Request) throws(HTTPError) -> Match {
        let method = request.method == .head ? .get : request.method
        var allowed: Set<String> = []
        for entry in literalEntries[request.path] ?? [] {
            if entry.method == method { return .route(entry, captures: []) }
            allowed.insert(entry.method.rawValue)
        }
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: true)
        for entry in patternedEntries {
            guard let captures = entry.pattern.match(segments), entry.accepts(captures) else { continue }
            if entry.method == method { return .route(entry, captures: captures) }
            allowed.insert(entry.method.rawValue)
        }
        if allowed.isEmpty, method == .get, let fallback {
            return .fallback(fallback)
        }
        guard allowed.isEmpty else {
            if allowed.contains("GET") { allowed.insert("HEAD") }
            throw HTTPError(.methodNotAllowed, message: "This address does not accept \(request.method.rawValue).",
                            headers: [.allow: allowed.sorted().joined(separator: ", ")])
        }
        throw HTTPError(.notFound, message: "There is nothing at this address.")
    }
}

/// One registered route, with its handler already wrapped in the route middleware. A class, so
/// that a match hands on one reference.
final class RouteEntry: Sendable {
    let name: String
    let method: HTTPRequest.Method
    let pattern: RoutePattern
    /// Whether the captures fit the route's parameter types (`/products/abc` does not fit `Int`).
    let accepts: @Sendable ([String]) -> Bool
    let respond: RequestResponder

    init(name: String, method: HTTPRequest.Method, pattern: RoutePattern, accepts: @escaping @Sendable ([String]) -> Bool, respond: @escaping RequestResponder) {
        self.name = name
        self.method = method
        self.pattern = pattern
        self.accepts = accepts
        self.respond = respond
    }
}
