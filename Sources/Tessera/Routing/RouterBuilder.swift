import TesseraViews

/// The routes of an app, as its modules register them. Three kinds, one per way of answering:
/// - ``page(_:_:)``: a full page, by a ``PageController``, or ``keptPage(_:_:)``, by a
///   ``KeptPage`` kept whole for visitors without a session;
/// - ``fragment(_:_:)``: a region at its own URL, by a ``RegionController``;
/// - ``action(_:_:)-6ptra``: anything else, such as a form post that redirects; the same with a
///   closure that never waits (``action(_:_:)-2959e``) answers without starting a task.
///
/// Routes that share a rule, such as "staff only", are registered in a ``group(_:routes:)``
/// with the middleware that states it, once.
public struct RouterBuilder: Sendable {
    private var routes: [Registration] = []
    /// The shared regions registered, by route name, for the pages that name them.
    private(set) var sharedRegions = SharedRegionTable()
    private var fallback: (any HTTPResponder)?

    /// No routes and no fallback yet.
    public init() {}

    /// Answers `GET`/`HEAD` requests no route matched, such as static files. A 404 it throws
    /// becomes the usual error page.
    public mutating func fallback(_ responder: some HTTPResponder) {
        fallback = responder
    }

    /// A full page: the factory reads the typed parameters and injects the services.
    public mutating func page<Parameters, Controller: PageController>(
        _ route: Route<Parameters>,
        _ factory: @escaping @Sendable (Parameters, RequestContext) throws -> Controller
    ) {
        add(route) { (read: @escaping @Sendable (RequestContext) throws -> Parameters) in
            { context in try PageRenderer.decide(with: factory(read(context), context), in: context) }
        }
    }

    /// A full page kept whole for visitors without a session (``KeptPage``): the factory gets the
    /// typed parameters alone, with no request, so what it stores are the parameters and the
    /// services. A visitor without a session cookie is answered from the app's ``KeptPages``; one
    /// with a session, or when the app keeps no pages, by the page rendered for them.
    public mutating func keptPage<Parameters, Kept: KeptPage>(
        _ route: Route<Parameters>,
        _ factory: @escaping @Sendable (Parameters) throws -> Kept
    ) {
        add(route) { (read: @escaping @Sendable (RequestContext) throws -> Parameters) in
            { context in
                let rendering = KeptPageRendering(page: try factory(read(context)))
                guard context.keptPageRecord == nil, let kept = context.application.keptPages, kept.isOn, let key = KeptPageKey(context) else {
                    return PageRenderer.decide(with: rendering, in: context)
                }
                return kept.decide(key, for: context) { context in try await context.render(rendering) }
            }
        }
    }

    /// A region's own URL: the child controller answers alone, as a bare fragment.
    public mutating func fragment<Parameters>(
        _ route: Route<Parameters>,
        _ factory: @escaping @Sendable (Parameters, RequestContext) throws -> any RegionController
    ) {
        regionAlone(route) { parameters, context in Region(source: nil, controller: try factory(parameters, context)) }
    }

    /// A shared region, made once here with the app's services, at its own URL: the region
    /// answers alone there, from the ``RegionCache`` when kept, and pages name it by `route`
    /// (``Region/init(shared:_:deadline:isRequired:in:)``). It is made before any request exists,
    /// so nothing of a visitor can be stored in it.
    public mutating func sharedRegion<Shared: SharedRegion>(_ route: Route<Shared.Parameters>, _ region: Shared) {
        sharedRegions.register(region, at: route)
        regionAlone(route) { parameters, _ in
            let source = route.path(parameters)
            return Region(source: source, shared: SharedRegionCall(region: region, parameters: parameters, source: source))
        }
    }

    private mutating func regionAlone<Parameters>(
        _ route: Route<Parameters>,
        _ make: @escaping @Sendable (Parameters, RequestContext) throws -> Region
    ) {
        add(route) { (read: @escaping @Sendable (RequestContext) throws -> Parameters) in
            Self.later { context in
                let region = try make(read(context), context)
                let html = try await region.fragment(in: context).fragment.html
                context.liveProbe?.report(region.topics)
                return Response.html(html.bytes)
            }
        }
    }

    /// Anything else that may wait, such as a form post that saves through a service and
    /// redirects.
    public mutating func action<Parameters>(
        _ route: Route<Parameters>,
        _ handler: @escaping @Sendable (Parameters, RequestContext) async throws -> Response
    ) {
        add(route) { (read: @escaping @Sendable (RequestContext) throws -> Parameters) in
            Self.later { context in try await handler(read(context), context) }
        }
    }

    /// An action that answers without waiting, such as a health check or a prepared answer.
    /// Swift picks it for a closure that does not `await`: the whole request, middleware
    /// included, is then answered on the server's thread without starting a task. So it must
    /// not block (no file or database reads, no sleeping): it holds that thread, and no handler
    /// deadline can cut it short. Anything that waits belongs in the `async` form.
    public mutating func action<Parameters>(
        _ route: Route<Parameters>,
        _ handler: @escaping @Sendable (Parameters, RequestContext) throws -> Response
    ) {
        add(route) { (read: @escaping @Sendable (RequestContext) throws -> Parameters) in
            { context in .now(try handler(read(context), context)) }
        }
    }

    /// Routes that share middleware: the steps run, outermost first, for these routes only, after
    /// the app's route middleware (so after CSRF) and before each route's controller, as
    /// ASP.NET Core's route groups and Phoenix's pipelines do. A back office says "staff only"
    /// here once, instead of in every handler, where one forgotten check is an open door.
    /// Groups nest; an address outside every route of the group never meets its steps.
    public mutating func group(_ middleware: any Middleware..., routes register: (inout RouterBuilder) -> Void) {
        var group = RouterBuilder()
        register(&group)
        add(group, behind: middleware)
    }

    /// Routes whose path holds a secret, such as a password reset link's token: the server's
    /// logs, the access log and traces show their pattern (`/password/reset/{token}`) instead
    /// of the path. The server matches these patterns as soon as a request's head is read, so a
    /// request refused before routing (over the connection cap, past its deadline) is hidden
    /// too, and so is any path that begins like one of them.
    public mutating func secret(routes register: (inout RouterBuilder) -> Void) {
        var group = RouterBuilder()
        register(&group)
        group.routes = group.routes.map { $0.holdingSecret() }
        add(group, behind: [])
    }

    /// Routes that share a guarantee, such as "a signed-in shopper": each handler gets the
    /// guaranteed value as a parameter, non-optional, checked before it runs, and the group's
    /// `middleware` runs before that, as in ``group(_:routes:)``.
    public mutating func group<Guarantee: RouteGuarantee>(
        _ guarantee: Guarantee, _ middleware: any Middleware..., routes register: (inout GuaranteedRoutes<Guarantee>) -> Void
    ) {
        var group = GuaranteedRoutes(guarantee: guarantee)
        register(&group)
        add(group.routes, behind: middleware)
    }

    private mutating func add(_ group: RouterBuilder, behind middleware: [any Middleware]) {
        precondition(group.fallback == nil, "a route group cannot have a fallback: register it on the app's routes")
        routes += group.routes.map { $0.adding(middleware) }
        sharedRegions.merge(group.sharedRegions)
    }

    /// A handler that always waits: its work is made once, here, so that no request pays for
    /// wrapping it.
    private static func later(_ work: @escaping @Sendable (inout RequestContext) async throws -> Response) -> RouteHandler {
        let later = NowOrLater<RequestContext, Response>.later(work)
        return { _ in later }
    }

    /// Registers `route`; `makeHandler` gets the function that reads the route's typed
    /// parameters from a matched request.
    private mutating func add<Parameters>(
        _ route: Route<Parameters>,
        _ makeHandler: (@escaping @Sendable (RequestContext) throws -> Parameters) -> RouteHandler
    ) {
        let handler = makeHandler { context in
            // Read once, by the router, when it matched this route.
            guard let parameters = context.route?.parameters as? Parameters else { throw HTTPError.nothingHere }
            return parameters
        }
        routes.append(
            Registration(
                name: route.name, method: route.method, pattern: route.pattern,
                parameterCount: Parameters.pathSegmentCount
            ) { routeMiddleware in
                RouteEntry(
                    name: route.name, method: route.method, pattern: route.pattern,
                    parameters: { captures in
                        var reader = RouteCaptures(captures)
                        return Parameters(captures: &reader)
                    },
                    middleware: routeMiddleware,
                    handler: handler
                )
            })
    }

    /// The router; or the first route whose pattern does not fit its parameters, or the first
    /// pair of clashing routes.
    func build(routeMiddleware: [any Middleware]) throws(RouteTableError) -> Router {
        for route in routes where route.pattern.parameterCount != route.parameterCount {
            throw .parametersMismatch(route: route.name, pattern: route.pattern, parameterCount: route.parameterCount)
        }
        for (index, first) in routes.enumerated() {
            for second in routes[(index + 1)...] where first.method == second.method && first.pattern.hasSameShape(as: second.pattern) {
                throw .clash(first: first.name, second: second.name, method: first.method, pattern: first.pattern)
            }
        }
        let secretPaths = SecretPaths(
            routes.filter(\.holdsSecret).map { route in
                SecretPaths.Pattern(
                    segments: route.pattern.segments.map { segment in
                        if case .literal(let text) = segment { text } else { nil }
                    }, shown: route.pattern.description)
            })
        return Router(entries: routes.map { $0.makeEntry(routeMiddleware) }, fallback: fallback, secretPaths: secretPaths)
    }

    private struct Registration: Sendable {
        let name: String
        let method: HTTPRequest.Method
        let pattern: RoutePattern
        let parameterCount: Int
        var holdsSecret = false
        let makeEntry: @Sendable ([any Middleware]) -> RouteEntry

        /// The same route, with a group's steps after the middleware it is given.
        func adding(_ middleware: [any Middleware]) -> Registration {
            let makeEntry = self.makeEntry
            return Registration(name: name, method: method, pattern: pattern, parameterCount: parameterCount, holdsSecret: holdsSecret) {
                outer in makeEntry(outer + middleware)
            }
        }

        /// The same route, its path known to hold a secret (``RouterBuilder/secret(routes:)``).
        func holdingSecret() -> Registration {
            var route = self
            route.holdsSecret = true
            return route
        }
    }
}

/// A route table the app refuses to start with, named so that the message points at the route.
public enum RouteTableError: Error, CustomStringConvertible, Equatable {
    /// Two routes would answer the same requests: `first` was registered before `second`; both
    /// answer `method` requests for patterns of `pattern`'s shape.
    case clash(first: String, second: String, method: HTTPRequest.Method, pattern: RoutePattern)
    /// The route's pattern has a different number of `{…}` segments than its parameters read,
    /// such as `Route<Int>("catalog.product", .get, "/products")`.
    case parametersMismatch(route: String, pattern: RoutePattern, parameterCount: Int)

    /// The names, the method and the pattern, for the message that stops the app.
    public var description: String {
        switch self {
        case .clash(let first, let second, let method, let pattern):
            "routes “\(first)” and “\(second)” both answer \(method.rawValue) \(pattern)"
        case .parametersMismatch(let route, let pattern, let parameterCount):
            "route “\(route)”: its pattern \(pattern) has \(pattern.parameterCount) {…} segment(s), but its parameters read \(parameterCount)"
        }
    }
}

extension RoutePattern {
    /// The same literals at the same places, and parameters at the same places.
    func hasSameShape(as other: RoutePattern) -> Bool {
        guard segments.count == other.segments.count else { return false }
        return zip(segments, other.segments).allSatisfy { a, b in
            switch (a, b) {
            case (.literal(let x), .literal(let y)): x == y
            case (.parameter, .parameter): true
            default: false
            }
        }
    }
}
