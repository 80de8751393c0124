public import Logging
public import ServiceLifecycle

/// A Tessera app, ready to serve: the middleware chain around the router.
///
/// It is what the HTTP server calls, both for requests (``answer(_:)``) and for requests the
/// server refused on its own (``answer(for:to:)``), so that every answer, an early 413
/// included, is shaped by the same steps. Build one with ``ApplicationBuilder``.
///
/// A request goes through the steps' ``Middleware/before(_:)`` in order, the router, the
/// matched route's steps, and its handler; then back out through the steps it entered. All of it
/// runs on the server's thread; only a step or a handler that waits moves the rest into a task.
/// Every layer says so with one type, ``NowOrLater``. An error that no step recovers from is
/// answered inside the chain, at its outermost step, with the error page: the server gets an
/// answer for every request.
public final class Application: HTTPResponder, HTTPErrorResponder {
    let parts: ApplicationParts
    let router: Router
    let middleware: [any Middleware]
    /// The steps that also shape answers to requests the server refused (sessions, error pages).
    private let rejectedRequestSteps: [any Middleware]

    /// What the server running the app reports; the same object the app's modules were given.
    public let serverState: HTTPServerState

    init(parts: ApplicationParts, router: Router, middleware: [any Middleware], serverState: HTTPServerState, services: [any Service]) {
        self.serverState = serverState
        self.moduleServices = services
        self.parts = parts
        self.router = router
        self.middleware = middleware
        self.rejectedRequestSteps = middleware.filter(\.runsForRejectedRequests)
    }

    /// What the modules registered to run beside the server (``ApplicationBuilder/services``).
    private let moduleServices: [any Service]

    /// What must run beside the app's server: the modules' services, and its ``LiveRegions``
    /// when it has them, last, so that a shutdown reaches them first.
    public var services: [any Service] {
        moduleServices + (parts.live.map { [$0] } ?? [])
    }

    /// The patterns of the routes registered with ``RouterBuilder/secret(routes:)``: the server
    /// logs and traces these instead of their paths.
    public var secretPaths: SecretPaths { router.secretPaths }

    /// The logger the app was built with; every request's context starts with it.
    public var logger: Logger { parts.logger }

    /// Answers a request through the middleware chain and, at its end, the router: now when
    /// nothing waits, or else with the work left for the server's task.
    public func answer(_ request: Request) -> NowOrLater<Void, Response> {
        run(request, through: middleware, to: .router(router))
    }

    /// A request the server refused before the app ran: answered by the steps that shape every
    /// answer (sessions, languages, error pages), as if a route had thrown `error`.
    public func answer(for error: any Error, to request: Request) -> NowOrLater<Void, Response> {
        run(request, through: rejectedRequestSteps, to: .failure(error))
    }

    /// Answers a request through the chain, waiting for its handler if it must: what tests and
    /// anything that is not the HTTP server call.
    public func respond(to request: Request) async throws -> Response {
        try await answer(request).value()
    }

    /// A kept page's copy (``KeptPages``): `request`, made of the page's key alone, through the
    /// whole chain, and what the page turned out to depend on (`nil`: not to be kept).
    func renderKeptPage(_ request: Request, within budget: DatabaseBudget) async throws -> (response: Response, topics: [Topic]?, route: String?) {
        let record = KeptPageRecord()
        let response = try await render(request, for: .keptPage(record), within: budget)
        return (response, record.topics, record.route)
    }

    /// `request` through the whole chain, rendered for someone other than its sender: nobody (a
    /// kept page's copy) or a live region's subscriber; within the database budget of the
    /// request it is rendered in, when there is one.
    func render(_ request: Request, for renderedFor: RenderedFor, within budget: DatabaseBudget? = nil) async throws -> Response {
        try await run(request, through: middleware, to: .router(router), renderedFor: renderedFor, within: budget).value()
    }
}
