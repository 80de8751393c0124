public import Logging
public import ServiceLifecycle

/// A Tessera app, ready to serve: the middleware chain around the router.
///
/// It is what the HTTP server calls, both for requests (``answer(_:)``) and for requests the
/// server refused on its own (``response(for:to:)``), so that every answer, an early 413
/// included, is shaped by the same steps. Build one with ``ApplicationBuilder``.
///
/// A request goes through the steps' ``Middleware/before(_:)`` in order, the router, the
/// matched route's steps, and its handler; then back out through the steps it entered. All of it
/// runs on the server's thread; only a step or a handler that waits moves the rest into a task.
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

    /// Answers a request through the middleware chain and, at its end, the router: at once when
    /// its handler does not wait, or else with the work left for a task.
    public func answer(_ request: Request) -> HTTPAnswer {
        run(request, through: middleware, to: .router(router))
    }

    /// The one runner of the chain, for both entry points: `steps` in order, then `end`, then the
    /// way out.
    private func run(_ request: Request, through steps: [any Middleware], to end: ChainEnd) -> HTTPAnswer {
        var context = RequestContext(request: request, application: parts)
        var run = MiddlewareRun(appSteps: steps)
        return Self.proceed(&run, &context, to: end)
    }

    /// Goes in as far as it can without waiting, then out, or hands the rest to a task. A step
    /// that surrounds the rest (``SurroundingMiddleware``) gets everything after it as a function.
    private static func proceed(_ run: inout MiddlewareRun, _ context: inout RequestContext, to end: ChainEnd) -> HTTPAnswer {
        switch advance(&run, &context, to: end) {
        case .finished(let outcome):
            return settle(run, outcome, context)
        case .surrounded(let step):
            return step.surround(&context) { proceed(&run, &$0, to: end) }
        case let next:
            return pending(run, context, next, to: end)
        }
    }

    /// What a request reaches once the app's steps hand it on: the router and a route, or, for a
    /// request the server refused, the refusal, answered as if a route had thrown it.
    private enum ChainEnd: Sendable {
        case router(Router)
        case failure(any Error)
    }

    /// Where a request's way in stopped.
    private enum Progress {
        /// The handler (or a step) answered, or something threw.
        case finished(Result<Response, any Error>)
        /// A step waits for this work before it decides.
        case stepWaits(@Sendable (inout RequestContext) async throws -> Response?)
        /// The handler may wait.
        case handlerWaits(@Sendable (RequestContext) async throws -> Response)
        /// A step that surrounds the rest handed the request on.
        case surrounded(any SurroundingMiddleware)
    }

    /// Goes in as far as it can without waiting: the app's steps, the router, the route's steps
    /// and a handler that does not wait. Called again after a step's wait, it resumes where it
    /// stopped: before routing while no route matched yet, else in the route's steps.
    private static func advance(_ run: inout MiddlewareRun, _ context: inout RequestContext, to end: ChainEnd) -> Progress {
        do {
            if context.route == nil {
                switch try run.enterAppSteps(&context) {
                case .handedOn: break
                case .answered(let early): return .finished(.success(early))
                case .waiting(let work): return .stepWaits(work)
                case .surrounding(let step): return .surrounded(step)
                }
                let router: Router
                switch end {
                case .failure(let refusal): return .finished(.failure(refusal))
                case .router(let routes): router = routes
                }
                switch try router.match(context.request) {
                case .route(let entry, let parameters):
                    context.route = MatchedRoute(entry: entry, parameters: parameters)
                case .fallback(let responder):
                    return .handlerWaits { context in try await responder.respond(to: context.request) }
                }
            }
            guard let entry = context.route?.entry else { preconditionFailure("routed above") }
            switch try run.enterRouteSteps(entry.middleware, &context) {
            case .handedOn: break
            case .answered(let early): return .finished(.success(early))
            case .waiting(let work): return .stepWaits(work)
            case .surrounding(let step): return .surrounded(step)
            }
            switch entry.handler {
            case .immediate(let handler): return .finished(Result { try handler(context) })
            case .suspending(let handler): return .handlerWaits(handler)
            case .deciding(let decide):
                switch try decide(context) {
                case .answer(let response): return .finished(.success(response))
                case .wait(let handler): return .handlerWaits(handler)
                }
            }
        } catch {
            return .finished(.failure(error))
        }
    }

    /// A kept page's copy (``KeptPages``): `request`, made of the page's key alone, through the
    /// whole chain, and what the page turned out to depend on (`nil`: not to be kept).
    func renderKeptPage(_ request: Request) async throws -> (response: Response, topics: [Topic]?) {
        let record = KeptPageRecord()
        var context = RequestContext(request: request, application: parts)
        context.keptPageRecord = record
        var run = MiddlewareRun(appSteps: middleware)
        let response = try await Self.proceed(&run, &context, to: .router(router)).response()
        return (response, record.topics)
    }

    /// Answers a request through the chain, waiting for its handler if it must: what tests and
    /// anything that is not the HTTP server call.
    public func respond(to request: Request) async throws -> Response {
        try await answer(request).response()
    }

    /// A request the server refused before the app ran (or an error no step recovered from):
    /// answered by the steps that shape every answer, as if the route had thrown `error`.
    public func response(for error: any Error, to request: Request) async -> Response {
        do {
            return try await run(request, through: rejectedRequestSteps, to: .failure(error)).response()
        } catch {
            // No error step in the chain: the plain page, still through the one mapping.
            let revealing = parts.developmentMode
            let answer = HTTPError.inLanguages(ThrownError.answer(for: error, revealingDetails: revealing), for: error, revealingDetails: revealing)
            return parts.errorPages.response(for: answer, in: RequestContext(request: request, application: parts))
        }
    }

    /// The same, when the steps that shape every answer answer without waiting: for the
    /// refusals libmicrohttpd makes inside its parser (a malformed `Content-Length`, say).
    public func immediateResponse(for error: any Error, to request: Request) -> Response? {
        guard case .ready(let response) = run(request, through: rejectedRequestSteps, to: .failure(error)) else { return nil }
        return response
    }

    /// The answer once the steps entered have run their way out. An error no step recovered
    /// from goes back to the server, which logs it and asks ``response(for:to:)``, as for any
    /// error the app did not answer.
    private static func settle(_ run: MiddlewareRun, _ outcome: Result<Response, any Error>, _ context: RequestContext) -> HTTPAnswer {
        do {
            return .ready(try run.exit(with: outcome, context: context))
        } catch {
            return .pending { throw error }
        }
    }

    /// The rest, for a request that must wait (for a step or its handler): run in the server's
    /// task, which goes on going in after each wait, then the way out.
    private static func pending(_ run: MiddlewareRun, _ context: RequestContext, _ progress: Progress, to end: ChainEnd) -> HTTPAnswer {
        .pending { try await finish(run, context, progress, to: end) }
    }

    private static func finish(_ run: MiddlewareRun, _ context: RequestContext, _ progress: Progress, to end: ChainEnd) async throws -> Response {
        var run = run, context = context, progress = progress
        while true {
            switch progress {
            case .finished(let outcome):
                return try run.exit(with: outcome, context: context)
            case .stepWaits(let work):
                do {
                    if let early = try await work(&context) {
                        progress = .finished(.success(early))
                    } else if let step = run.handedOn() {
                        progress = .surrounded(step)
                    } else {
                        progress = advance(&run, &context, to: end)
                    }
                } catch {
                    progress = .finished(.failure(error))
                }
            case .handlerWaits(let handler):
                do { progress = .finished(.success(try await handler(context))) } catch { progress = .finished(.failure(error)) }
            case .surrounded(let step):
                // Everything after the step, its own way out included, goes inside it.
                return try await step.surround(&context) { proceed(&run, &$0, to: end) }.response()
            }
        }
    }
}
