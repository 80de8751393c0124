import Logging
import ServiceLifecycle

/// A Tessera app, ready to serve: the middleware chain around the router.
///
/// It is what the HTTP server calls, both for requests (``answer(_:)``) and for requests the
/// server refused on its own (``response(for:to:)``), so that every answer, an early 413
/// included, is shaped by the same steps. Build one with ``ApplicationBuilder``.
///
/// A request goes through the steps' ``Middleware/before(_:)`` in order, the router, the
/// matched route's steps, and its handler; then back out through the steps it entered. All of it
/// runs on the server's thread; only a handler that waits moves the rest into a task.
public final class Application: HTTPResponder, HTTPErrorResponder {
    let parts: ApplicationParts
    private let router: Router
    private let middleware: [any Middleware]
    /// The steps that also shape answers to requests the server refused (sessions, error pages).
    private let rejectedRequestSteps: [any Middleware]

    /// What the server running the app reports; the same object the app's modules were given.
    public let serverState: HTTPServerState

    init(parts: ApplicationParts, router: Router, middleware: [any Middleware], measuresDatabaseTime: Bool, serverState: HTTPServerState) {
        self.serverState = serverState
        self.parts = parts
        self.router = router
        self.middleware = middleware
        self.rejectedRequestSteps = middleware.filter(\.runsForRejectedRequests)
        self.measuresDatabaseTime = measuresDatabaseTime
    }

    /// Whether each request gets a ``DatabaseTime`` meter: only when something reads it, so an
    /// app without metrics pays nothing.
    private let measuresDatabaseTime: Bool

    /// What must run beside the app's server: its ``LiveRegions``, when it has them.
    public var services: [any Service] {
        parts.live.map { [$0] } ?? []
    }

    /// The logger the app was built with; every request's context starts with it.
    public var logger: Logger { parts.logger }

    /// Answers a request through the middleware chain and, at its end, the router: at once when
    /// its handler does not wait, or else with the work left for a task.
    public func answer(_ request: Request) -> HTTPAnswer {
        var context = RequestContext(request: request, application: parts)
        guard measuresDatabaseTime else { return answer(in: context) }
        let meter = DatabaseTime()
        context.databaseTime = meter
        return DatabaseTime.$current.withValue(meter) { answer(in: context) }
    }

    private func answer(in context: RequestContext) -> HTTPAnswer {
        var context = context
        var run = MiddlewareRun(appSteps: middleware)
        do {
            if let early = try run.enterAppSteps(&context) {
                return Self.settle(run, .success(early), context)
            }
            switch try router.match(context.request) {
            case .route(let entry, let captures):
                context.route = MatchedRoute(entry: entry, captures: captures)
                if let early = try run.enterRouteSteps(entry.middleware, &context) {
                    return Self.settle(run, .success(early), context)
                }
                switch entry.handler {
                case .immediate(let handler):
                    return Self.settle(run, Result { try handler(context) }, context)
                case .suspending(let handler):
                    return Self.pending(run, context) { context in try await handler(context) }
                }
            case .fallback(let responder):
                return Self.pending(run, context) { context in try await responder.respond(to: context.request) }
            }
        } catch {
            return Self.settle(run, .failure(error), context)
        }
    }

    /// Answers a request through the chain, waiting for its handler if it must: what tests and
    /// anything that is not the HTTP server call.
    public func respond(to request: Request) async throws -> Response {
        switch answer(request) {
        case .ready(let response): response
        case .pending(let work): try await work()
        }
    }

    /// A request the server refused before the app ran (or an error no step recovered from):
    /// answered by the steps that shape every answer, as if the route had thrown `error`.
    public func response(for error: any Error, to request: Request) async -> Response {
        var context = RequestContext(request: request, application: parts)
        var run = MiddlewareRun(appSteps: rejectedRequestSteps)
        let outcome: Result<Response, any Error>
        do {
            outcome = try run.enterAppSteps(&context).map { .success($0) } ?? .failure(error)
        } catch {
            outcome = .failure(error)
        }
        do {
            return try run.exit(with: outcome, context: context)
        } catch {
            // No error step in the chain: the plain page, still through the one mapping.
            let answer = ThrownError.answer(for: error, revealingDetails: parts.developmentMode)
            return parts.errorPages.response(for: answer, in: context)
        }
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

    /// The rest, for a handler that may wait: run in the server's task, then the way out.
    private static func pending(_ run: MiddlewareRun, _ context: RequestContext,
                                _ handler: @escaping @Sendable (RequestContext) async throws -> Response) -> HTTPAnswer {
        .pending {
            // The task runs later, outside the binding `answer` made: bind the meter again.
            guard let meter = context.databaseTime else { return try await finish(run, context, handler) }
            return try await DatabaseTime.$current.withValue(meter) { try await finish(run, context, handler) }
        }
    }

    private static func finish(_ run: MiddlewareRun, _ context: RequestContext,
                               _ handler: @Sendable (RequestContext) async throws -> Response) async throws -> Response {
        let outcome: Result<Response, any Error>
        do { outcome = .success(try await handler(context)) } catch { outcome = .failure(error) }
        return try run.exit(with: outcome, context: context)
    }
}
