/// How a request goes through an app: in through the steps' `before`, as far as it can without
/// waiting, to the router and the route's handler; then out, innermost step first. All of it
/// runs on the server's thread; only a step or a handler that waits hands the rest, once, to
/// the server's task, which goes on going in after each wait.
extension Application {
    /// The one runner of the chain, for both entry points: `steps` in order, then `end`, then the
    /// way out. A render for someone else than its sender waits within the `budget` of the
    /// request it is made for (a kept page's, of the visitor who asked first); otherwise within
    /// its own.
    func run(
        _ request: Request, through steps: [any Middleware], to end: ChainEnd, renderedFor: RenderedFor = .visitor,
        within budget: DatabaseBudget? = nil
    ) -> NowOrLater<Void, Response> {
        var context = RequestContext(request: request, application: parts)
        context.renderedFor = renderedFor
        if let budget { context.databaseBudget = budget }
        var run = MiddlewareRun(appSteps: steps)
        return Self.proceed(&run, &context, to: end)
    }

    /// What a request reaches once the app's steps hand it on: the router and a route, or, for a
    /// request the server refused, the refusal, answered as if a route had thrown it.
    enum ChainEnd: Sendable {
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
