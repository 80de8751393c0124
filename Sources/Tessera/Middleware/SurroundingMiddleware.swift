/// A step that surrounds the rest of the request: what must hold while everything after it
/// runs, such as a span bound as the current trace context (``TracingMiddleware``) or a
/// task-local value. As Hummingbird's middleware and ASP.NET
/// Core's do, it gets the rest as a function and calls it once.
///
/// The rest is everything after this step's ``Middleware/before(_:)``: the later steps, the
/// handler, and the whole way out, which runs once, innermost step first, inside every step
/// that surrounds: this step's own ``Middleware/after(_:for:)``, and those of the steps before
/// it, see what it binds. The rest answers now, or with work for the server's task
/// (``NowOrLater/later(_:)``), which runs after ``surround(_:_:)`` has returned: a step that
/// binds a value binds it again around that work. An app without such steps pays nothing for
/// them.
public protocol SurroundingMiddleware: Middleware {
    /// Runs `rest` inside what this step sets up, once, and returns its answer.
    func surround(
        _ context: inout RequestContext, _ rest: (inout RequestContext) -> NowOrLater<Void, Response>
    ) -> NowOrLater<Void, Response>
}

extension SurroundingMiddleware {
    /// Itself, for the runner that enters it.
    public var surrounding: (any SurroundingMiddleware)? { self }
}
