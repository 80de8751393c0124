/// Anything that turns a request into a response: a router, a file server, a test stub.
///
/// One method, `async` and throwing, so that every layer composes the same way. A thrown
/// ``HTTPResponseError`` is answered with its status; anything else becomes a 500.
public protocol HTTPResponder: Sendable {
    func respond(to request: Request) async throws -> Response
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
