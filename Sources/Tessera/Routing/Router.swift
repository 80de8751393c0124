import TesseraViews

/// Matches a request to one route; nothing else. The application runs what it matched.
///
/// A path that matches no route is a 404; one that matches only routes of other methods is a
/// 405 with `Allow`; `HEAD` is served by the `GET` route. Literal routes are tried before
/// patterned ones, so `/products/new` and `/products/{id}` can live side by side. A `GET` that
/// matches nothing goes to the fallback (static files), if there is one.
///
/// A class: every request hands it along the chain, and one reference costs less to pass than
/// its tables.
final class Router: Sendable {
    private let literalEntries: [String: [RouteEntry]]
    private let patternedEntries: RouteTrie
    private let fallback: (any HTTPResponder)?
    /// The patterns of the routes registered as secret, for the server's logs.
    let secretPaths: SecretPaths

    init(entries: [RouteEntry], fallback: (any HTTPResponder)?, secretPaths: SecretPaths = .none) {
        self.secretPaths = secretPaths
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
        patternedEntries = RouteTrie(patterned)
        self.fallback = fallback
    }

    enum Match {
        case route(RouteEntry, parameters: any Sendable)
        case fallback(any HTTPResponder)
    }

    /// The route for `request`, the fallback, or the 404 or 405 to answer. Synchronous: the only
    /// thing that may wait is the route's handler.
    func match(_ request: Request) throws(HTTPError) -> Match {
        let method = request.method == .head ? .get : request.method
        var allowed: Set<String> = []
        for entry in literalEntries[request.path] ?? [] {
            if entry.method == method, let parameters = entry.parameters([]) { return .route(entry, parameters: parameters) }
            allowed.insert(entry.method.rawValue)
        }
        // One spelling per address: an empty segment (`//`, a trailing `/`) matches no pattern,
        // so `/photos//a.webp` is a 404, not an alias that caches would keep beside the real one.
        // The first registered of the routes that match, fit and answer this method.
        var matched: (order: Int, entry: RouteEntry, parameters: any Sendable)?
        patternedEntries.forEachMatch(of: request.path) { order, entry, captures in
            guard order < matched?.order ?? .max, let parameters = entry.parameters(captures) else { return }
            if entry.method == method {
                matched = (order, entry, parameters)
            } else {
                allowed.insert(entry.method.rawValue)
            }
        }
        if let matched { return .route(matched.entry, parameters: matched.parameters) }
        if allowed.isEmpty, method == .get, let fallback {
            return .fallback(fallback)
        }
        guard allowed.isEmpty else {
            if allowed.contains("GET") { allowed.insert("HEAD") }
            throw HTTPError(
                .methodNotAllowed, Messages.errorMethod.text(["method": request.method.rawValue]),
                headers: [.allow: allowed.sorted().joined(separator: ", ")])
        }
        throw HTTPError.nothingHere
    }
}

/// One registered route: its address, the route middleware it runs, and its handler. A class,
/// so that a match hands on one reference.
final class RouteEntry: Sendable {
    let name: String
    let method: HTTPRequest.Method
    let pattern: RoutePattern
    /// The route's typed parameters read from the captures, once, for its handler; `nil` when
    /// they do not fit (`/products/abc` does not fit `Int`), and the router tries the next route.
    let parameters: @Sendable ([String]) -> (any Sendable)?
    /// The steps a request goes through once it matched this route, after the app's.
    let middleware: [any Middleware]
    let handler: RouteHandler

    init(
        name: String, method: HTTPRequest.Method, pattern: RoutePattern, parameters: @escaping @Sendable ([String]) -> (any Sendable)?,
        middleware: [any Middleware], handler: @escaping RouteHandler
    ) {
        self.name = name
        self.method = method
        self.pattern = pattern
        self.parameters = parameters
        self.middleware = middleware
        self.handler = handler
    }
}

/// A route's handler, with its typed parameters already read from the matched route: the
/// answer now when it needs no waiting (a health check, a page's 304, a kept page), so that the
/// whole request is answered on the server's thread with no task, or the work that makes it
/// later (a page's regions, an action that awaits).
typealias RouteHandler = @Sendable (RequestContext) throws -> NowOrLater<RequestContext, Response>
