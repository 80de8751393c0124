/// A value ready now, or the work that finds it later: the one shape of every answer in a
/// Tessera app, from the server (``HTTPResponder/answer(_:)``) through each middleware step to
/// each route's handler.
///
/// Why not just `async`: every async call costs a frame from the task's allocator and an
/// executor check on return, and the first one costs a task. Most requests need neither (a
/// health check, a 304, a kept page, a step that only reads a header), so each layer says
/// whether its answer is ready, and only work that must wait, for a database or a region, is
/// run in a task, once, by the server.
///
/// `later`'s work gets the `Context` of the layer that runs it, as `inout`: the chain of steps
/// hands a step's or a handler's work its request context, so that a step that waited can still
/// change what the steps after it see. The server hands nothing (`Void`): the work it runs has
/// captured what it needs, and a copy of the request per layer would cost every waiting request.
public enum NowOrLater<Context, Value: Sendable>: Sendable {
    /// The value, found without waiting.
    case now(Value)
    /// The work that finds the value, which may wait; what it throws is the layer's error.
    case later(@Sendable (inout Context) async throws -> Value)

    /// The value, running the work with `context` when there is some.
    public func value(given context: inout Context) async throws -> Value {
        switch self {
        case .now(let value): return value
        case .later(let work): return try await work(&context)
        }
    }
}

extension NowOrLater where Context == Void {
    /// The value, running the work when there is some.
    public func value() async throws -> Value {
        switch self {
        case .now(let value): return value
        case .later(let work):
            var nothing: Void = ()
            return try await work(&nothing)
        }
    }
}
