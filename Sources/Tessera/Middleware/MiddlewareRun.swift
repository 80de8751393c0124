/// The part of a chain a request has entered so far: the steps whose ``Middleware/before(_:)``
/// handed the request on, so that exactly those run their ``Middleware/after(_:for:)`` or
/// ``Middleware/recover(from:in:)`` on the way out, innermost first. The app's steps come
/// first, then the matched route's.
///
/// Entering stops at a step that must wait (``StepOutcome/wait(_:)``); once its work hands the
/// request on (``handedOn()``), entering the same list again resumes after that step.
struct MiddlewareRun: Sendable {
    private let appSteps: [any Middleware]
    private var routeSteps: [any Middleware] = []
    private var enteredApp = 0
    private var enteredRoute = 0
    private var inRouteSteps = false

    init(appSteps: [any Middleware]) {
        self.appSteps = appSteps
    }

    /// How entering a list of steps ended.
    enum Entry {
        /// Every step handed the request on.
        case handedOn
        /// A step answered; nothing after it runs.
        case answered(Response)
        /// A step must wait for this work before it decides.
        case waiting(@Sendable (inout RequestContext) async throws -> Response?)
        /// A step that surrounds the rest handed the request on: the rest goes inside it.
        case surrounding(any SurroundingMiddleware)
    }

    /// Runs the app's steps' `before`, from the first one not entered yet.
    mutating func enterAppSteps(_ context: inout RequestContext) throws -> Entry {
        try Self.enter(appSteps, &context, counting: &enteredApp)
    }

    /// Runs the matched route's steps' `before`, after the app's, from the first one not
    /// entered yet.
    mutating func enterRouteSteps(_ steps: [any Middleware], _ context: inout RequestContext) throws -> Entry {
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
    private static func enter(_ steps: [any Middleware], _ context: inout RequestContext, counting entered: inout Int) throws -> Entry {
        while entered < steps.count {
            let step = steps[entered]
            switch try step.before(&context) {
            case .next:
                entered += 1
                if let surrounding = step.surrounding { return .surrounding(surrounding) }
            case .answer(let response): return .answered(response)
            case .wait(let work): return .waiting(work)
            }
        }
        return .handedOn
    }

    /// Runs the way out of every step entered, innermost first: `after` while there is a
    /// response, `recover` while there is an error. What is left at the outermost step is thrown.
    func exit(with outcome: Result<Response, any Error>, context: RequestContext) throws -> Response {
        var outcome = outcome
        for step in routeSteps[..<enteredRoute].reversed() {
            outcome = Self.exit(step, outcome, context)
        }
        for step in appSteps[..<enteredApp].reversed() {
            outcome = Self.exit(step, outcome, context)
        }
        return try outcome.get()
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
