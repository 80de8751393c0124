/// The part of a chain a request has entered so far: the steps whose ``Middleware/before(_:)``
/// handed the request on, so that exactly those run their ``Middleware/after(_:for:)`` or
/// ``Middleware/recover(from:in:)`` on the way out, innermost first. The app's steps come first, then the matched route's.
struct MiddlewareRun {
    private let appSteps: [any Middleware]
    private var routeSteps: [any Middleware] = []
    private var enteredApp = 0
    private var enteredRoute = 0

    init(appSteps: [any Middleware]) {
        self.appSteps = appSteps
    }

    /// Runs the app's steps' `before`; a response is an answer that stops the chain there.
    mutating func enterAppSteps(_ context: inout RequestContext) throws -> Response? {
        try Self.enter(appSteps, &context, counting: &enteredApp)
    }

    /// Runs the matched route's steps' `before`, after the app's.
    mutating func enterRouteSteps(_ steps: [any Middleware], _ context: inout RequestContext) throws -> Response? {
        routeSteps = steps
        return try Self.enter(steps, &context, counting: &enteredRoute)
    }

    /// Runs `steps`' `before` in order, counting those that hand the request on; a response
    /// from one of them stops there.
    private static func enter(_ steps: [any Middleware], _ context: inout RequestContext, counting entered: inout Int) throws -> Response? {
        for step in steps {
            if let answer = try step.before(&context) { return answer }
            entered += 1
        }
        return nil
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

    private static func exit(_ step: some Middleware, _ outcome: Result<Response, any Error>, _ context: RequestContext) -> Result<Response, any Error> {
        switch outcome {
        case .success(var response):
            step.after(&response, for: context)
            return .success(response)
        case .failure(let error):
            return Result { try step.recover(from: error, in: context) }
        }
    }
}
