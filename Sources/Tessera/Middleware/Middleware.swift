/// One step of the request pipeline: it acts before the rest of the chain, after it, and when
/// the rest throws. The shape of Rails' `before_action`/`after_action`, ASP.NET Core's filters
/// and Phoenix's plugs.
///
/// A step may change the context it hands on (load the session, attach a typed value with
/// ``RequestContext/subscript(_:)``), answer by itself, change the response on its way out, or
/// turn an error into an answer. The composition root declares the chain in order, in
/// ``ApplicationBuilder/build(layout:middleware:routeMiddleware:logger:developmentMode:)``.
///
/// Steps decide synchronously, and wait only when they must. A request pays for every async
/// call it makes (a frame from the task's allocator and an executor check on return), and a
/// chain of "around" closures nests one such call per step. Hooks run in a loop instead, so a
/// request that nothing waits for is answered on the server's thread with no task at all. A
/// step that needs I/O for this request (a database that must be asked) returns its work
/// ``NowOrLater/later(_:)``: the rest of the request then runs in one task, and the server's
/// thread goes on serving others. A step must never block that thread itself.
public protocol Middleware: Sendable {
    /// Runs before the steps after this one and the route: changes the context they get and
    /// hands the request on (``NowOrLater/next``), answers now (`.now(response)`), or hands back
    /// work to wait for (`.later`), which changes the context as this method would and returns
    /// the answer, or `nil` to hand the request on. A response is the answer: nothing after this
    /// step runs, and the steps before it see the response on its way out. Throwing is
    /// answering with an error, which the steps before this one may recover from.
    func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?>

    /// Runs on the way out, innermost step first, once the rest of the chain answered: adds
    /// headers, sets cookies. `context` is the context the handler saw.
    func after(_ response: inout Response, for context: RequestContext)

    /// The rest of the chain threw `error`: answers it, or throws it on to the steps before
    /// this one. Steps after a recovery see nothing of the error; those before it see the
    /// recovered response in ``after(_:for:)``.
    func recover(from error: any Error, in context: RequestContext) throws -> Response

    /// Whether this step also runs for a request the server refused before the app saw it (a
    /// 413 for a body that is too large, say). Steps that shape every answer, such as sessions
    /// and error pages, say yes, so that such an error page looks like any other and its forms
    /// work; steps that act on a request the app accepts (CSRF, sign-in) keep the default, no.
    var runsForRejectedRequests: Bool { get }

    /// The step as a ``SurroundingMiddleware`` when it is one, so that the chain surrounds the
    /// rest with it without a cast per request; `nil` for any other step.
    var surrounding: (any SurroundingMiddleware)? { get }
}

extension Middleware {
    /// Hands the request on unchanged.
    public func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> { .next }

    /// Leaves the response as it is.
    public func after(_ response: inout Response, for context: RequestContext) {}

    /// Throws the error on.
    public func recover(from error: any Error, in context: RequestContext) throws -> Response { throw error }

    /// No: by default a step acts only on requests the app accepted.
    public var runsForRejectedRequests: Bool { false }

    /// None: the step does not surround the rest.
    public var surrounding: (any SurroundingMiddleware)? { nil }
}

extension NowOrLater where Context == RequestContext, Value == Response? {
    /// A step's "hand the request on": no answer, now.
    public static var next: Self { .now(nil) }
}
