/// The part of a chain a request has entered so far: the steps whose ``Middleware/before(_:)``
/// handed the request on, so that exactly those run their ``Middleware/after(_:for:)`` or
/// ``Middleware/recover(from:in:)`` on the way out, innermost first. The app's steps come
/// first, then the matched route's.
///
/// Entering stops at a step that must wait (its work ``NowOrLater/later(_:)``); once its work
/// hands the request on (``handedOn()``), entering the same list again resumes after that step.
struct MiddlewareRun: Sendable {
    private let appSteps: [any Middleware]
    private var routeSteps: [any Middleware] = []
    private var enteredApp = 0
    private var enteredRoute = 0
    private var inRouteSteps = false

    init(appSteps: [any Middleware]) {
        self.appSteps = appSteps
    }

    /// Where going in stopped short of the way out: which layer answered, or must wait, and how.
    enum Stop {
        /// A step answered now (a response), or must wait for its work before it decides.
        case step(NowOrLater<RequestContext, Response?>)
        /// The handler (or the router's fallback) answered now, or must wait for its work.
        case handler(NowOrLater<RequestContext, Response>)
        /// Something threw on the way in.
        case failed(any Error)
        /// A step that surrounds the rest handed the request on: the rest goes inside it.
        case surrounded(any SurroundingMiddleware)
    }

    /// Runs the app's steps' `before`, from the first one not entered yet; `nil` once every one
    /// handed the request on.
    mutating func enterAppSteps(_ context: inout RequestContext) throws -> Stop? {
        try Self.enter(appSteps, &context, counting: &enteredApp)
    }

    /// Runs the matched route's steps' `before`, after the app's, from the first one not
    /// entered yet; `nil` once every one handed the request on.
    mutating func enterRouteSteps(_ steps: [any Middleware], _ context: inout RequestContext) throws -> Stop? {
        routeSteps = steps
        inRouteSteps = true
        return try Self.enter(steps, &context, counting: &enteredRoute)
    }

    /// The step that waited handed the request on: it counts as entered. Returns it when it
    /// surrounds the rest.
    mutating func handedOn() -> (any SurroundingMiddleware)? {
        if inRouteSteps {
            enteredRoute += 1
            return routeSteps[enteredRoute - 1].surrounding
        }
        enteredApp += 1
        return appSteps[enteredApp - 1].surrounding
    }

    /// Runs `steps`' `before` in order from `entered`, counting those that hand the request on;
    /// an answer, a wait or a step that surrounds the rest stops there.
    private static func enter(_ steps: [any Middleware], _ context: inout RequestContext, counting entered: inout Int) throws -> Stop? {
        while entered < steps.count {
            let step = steps[entered]
            let decided = try step.before(&context)
            guard case .now(nil) = decided else { return .step(decided) }
            entered += 1
            if let surrounding = step.surrounding { return .surrounded(surrounding) }
        }
        return nil
    }

    /// Runs the way out of every step entered, innermost first: `after` while there is a
    /// response, `recover` while there is an error. An error that no step recovered from is
    /// answered here, at the outermost step, by the error page step's own recovery: it never
    /// leaves the app to come back in.
    func exit(with outcome: Result<Response, any Error>, context: RequestContext) -> Response {
        var outcome = outcome
        for step in routeSteps[..<enteredRoute].reversed() {
            outcome = Self.exit(step, outcome, context)
        }
        for step in appSteps[..<enteredApp].reversed() {
            outcome = Self.exit(step, outcome, context)
        }
        switch outcome {
        case .success(let response): return response
        case .failure(let error): return ErrorPageMiddleware().recover(from: error, in: context)
        }
    }

    private static func exit(
        _ step: some Middleware, _ outcome: Result<Response, any Error>, _ context: RequestContext
    ) -> Result<Response, any Error> {
        switch outcome {
        case .success(var response):
            step.after(&response, for: context)
            return .success(response)
        case .failure(let error):
            return Result { try step.recover(from: error, in: context) }
        }
    }
}
