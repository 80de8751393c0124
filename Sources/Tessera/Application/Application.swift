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
    private let router: Router
    private let middleware: [any Middleware]
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
    func renderKeptPage(_ request: Request) async throws -> (response: Response, topics: [Topic]?) {
        let record = KeptPageRecord()
        let response = try await render(request, for: .keptPage(record))
        return (response, record.topics)
    }

    /// `request` through the whole chain, rendered for someone other than its sender: nobody (a
    /// kept page's copy) or a live region's subscriber.
    func render(_ request: Request, for renderedFor: RenderedFor) async throws -> Response {
        var context = RequestContext(request: request, application: parts)
        context.renderedFor = renderedFor
        var run = MiddlewareRun(appSteps: middleware)
        return try await Self.proceed(&run, &context, to: .router(router)).value()
    }

    /// The one runner of the chain, for both entry points: `steps` in order, then `end`, then the
    /// way out.
    private func run(_ request: Request, through steps: [any Middleware], to end: ChainEnd) -> NowOrLater<Void, Response> {
        var context = RequestContext(request: request, application: parts)
        var run = MiddlewareRun(appSteps: steps)
        return Self.proceed(&run, &context, to: end)
    }

    /// What a request reaches once the app's steps hand it on: the router and a route, or, for a
    /// request the server refused, the refusal, answered as if a route had thrown it.
    private enum ChainEnd: Sendable {
        case router(Router)
        case failure(any Error)
    }

    /// Goes in as far as it can without waiting, then out, or hands the rest to the server's
    /// task. A step that surrounds the rest (``SurroundingMiddleware``) gets everything after
    /// it as a function.
    private static func proceed(_ run: inout MiddlewareRun, _ context: inout RequestContext, to end: ChainEnd) -> NowOrLater<Void, Response> {
        switch advance(&run, &context, to: end) {
        case .step(.now(let early?)):
            return .now(run.exit(with: .success(early), context: context))
        case .handler(.now(let response)):
            return .now(run.exit(with: .success(response), context: context))
        case .failed(let error):
            return .now(run.exit(with: .failure(error), context: context))
        case .surrounded(let step):
            return step.surround(&context) { proceed(&run, &$0, to: end) }
        case let stop:
            return .later { [run, context] _ in try await finish(run, context, stop, to: end) }
        }
    }

    /// Goes in as far as it can without waiting: the app's steps, the router, the route's steps
    /// and its handler's decision. Called again after a step's wait, it resumes where it
    /// stopped: before routing while no route matched yet, else in the route's steps.
    private static func advance(_ run: inout MiddlewareRun, _ context: inout RequestContext, to end: ChainEnd) -> MiddlewareRun.Stop {
        do {
            if context.route == nil {
                if let stop = try run.enterAppSteps(&context) { return stop }
                let router: Router
                switch end {
                case .failure(let refusal): return .failed(refusal)
                case .router(let routes): router = routes
                }
                switch try router.match(context.request) {
                case .route(let entry, let parameters):
                    context.route = MatchedRoute(entry: entry, parameters: parameters)
                case .fallback(let responder):
                    return .handler(.later { context in try await responder.respond(to: context.request) })
                }
            }
            guard let entry = context.route?.entry else { preconditionFailure("routed above") }
            if let stop = try run.enterRouteSteps(entry.middleware, &context) { return stop }
            return .handler(try entry.handler(context))
        } catch {
            return .failed(error)
        }
    }

    /// The rest, for a request that must wait (for a step or its handler), in the server's
    /// task: goes on going in after each wait, then the way out.
    private static func finish(_ run: MiddlewareRun, _ context: RequestContext, _ stop: MiddlewareRun.Stop, to end: ChainEnd) async throws -> Response
    {
        var run = run, context = context, stop = stop
        while true {
            let outcome: Result<Response, any Error>
            switch stop {
            case .step(.now(let early?)):
                outcome = .success(early)
            case .step(.now(nil)):
                preconditionFailure("a step that hands the request on does not stop it")
            case .step(.later(let work)):
                do {
                    if let early = try await work(&context) {
                        outcome = .success(early)
                    } else if let step = run.handedOn() {
                        stop = .surrounded(step)
                        continue
                    } else {
                        stop = advance(&run, &context, to: end)
                        continue
                    }
                } catch {
                    outcome = .failure(error)
                }
            case .handler(.now(let response)):
                outcome = .success(response)
            case .handler(.later(let work)):
                do { outcome = .success(try await work(&context)) } catch { outcome = .failure(error) }
            case .failed(let error):
                outcome = .failure(error)
            case .surrounded(let step):
                // Everything after the step, its own way out included, goes inside it.
                return try await step.surround(&context) { proceed(&run, &$0, to: end) }.value()
            }
            return run.exit(with: outcome, context: context)
        }
    }
}
