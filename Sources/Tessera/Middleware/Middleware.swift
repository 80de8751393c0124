/// What every step of the pipeline calls to hand the request on: the next middleware, or at the
/// end of the chain, the router.
public typealias RequestResponder = @Sendable (RequestContext) async throws -> Response

/// One step of the request pipeline, in the spirit of Hummingbird's `RouterMiddleware` and an
/// ASP.NET Core pipeline step: it gets the request in its context and the rest of the chain.
///
/// A middleware may answer by itself, change the context it hands on (load the session, attach
/// a typed value with ``RequestContext/subscript(_:)``), or change the response on its way back.
/// The composition root declares the chain in order, in
/// ``ApplicationBuilder/build(layout:middleware:routeMiddleware:logger:developmentMode:)``.
public protocol Middleware: Sendable {
    /// Answers the request in `context`: usually by calling `next` with the context, or a changed
    /// copy, and returning what comes back, changed or not; or alone, by returning or throwing.
    func handle(_ context: RequestContext, next: RequestResponder) async throws -> Response

    /// Whether this step also runs for a request the server refused before the app saw it (a
    /// 413 for a body that is too large, say). Steps that shape every answer, such as sessions
    /// and error pages, say yes, so that such an error page looks like any other and its forms
    /// work; steps that act on a request the app accepts (CSRF, sign-in) keep the default, no.
    var runsForRejectedRequests: Bool { get }
}

extension Middleware {
    /// No: by default a step acts only on requests the app accepted.
    public var runsForRejectedRequests: Bool { false }
}

enum MiddlewareChain {
    /// The steps wrapped around `terminal`, the first step outermost. Composed once, at build
    /// time, so a request pays one call per step and no allocation.
    static func compose(_ steps: [any Middleware], around terminal: @escaping RequestResponder) -> RequestResponder {
        steps.reversed().reduce(terminal) { next, step in wrap(step, around: next) }
    }

    /// One step around the rest, with the step's concrete type known, so a request calls its
    /// `handle` directly rather than through the existential's witness table.
    private static func wrap<Step: Middleware>(_ step: Step, around next: @escaping RequestResponder) -> RequestResponder {
        { context in try await step.handle(context, next: next) }
    }
}
