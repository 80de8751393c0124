/// Anything that turns a request into a response: a router, a file server, a test stub.
///
/// Its job is ``respond(to:)``, `async` and throwing, so that every layer composes the same way.
/// A thrown ``HTTPResponseError`` is answered with its status; anything else becomes a 500.
public protocol HTTPResponder: Sendable {
    /// The response to `request`, waiting for whatever it needs.
    func respond(to request: Request) async throws -> Response

    /// Starts answering `request` on the server's own thread: the response, if it was ready
    /// without waiting, or the work that is left, which the server runs in a task.
    ///
    /// The server calls this, not ``respond(to:)``: an answer that is ready at once costs no
    /// task. The default leaves everything to ``respond(to:)``.
    func answer(_ request: Request) -> NowOrLater<Void, Response>

    /// The paths that hold a secret, which the server's logs and traces show as their pattern;
    /// asked once, when the server starts. The default is none.
    var secretPaths: SecretPaths { get }
}

extension HTTPResponder {
    /// Everything is left to ``respond(to:)``, in a task.
    public func answer(_ request: Request) -> NowOrLater<Void, Response> {
        .later { _ in try await respond(to: request) }
    }

    /// No path holds a secret.
    public var secretPaths: SecretPaths { .none }
}

/// Wraps a closure as a responder, for small apps and tests.
public struct ClosureResponder: HTTPResponder {
    let closure: @Sendable (Request) async throws -> Response

    /// Wraps `closure`.
    public init(_ closure: @escaping @Sendable (Request) async throws -> Response) {
        self.closure = closure
    }

    /// Calls the closure.
    public func respond(to request: Request) async throws -> Response {
        try await closure(request)
    }
}
