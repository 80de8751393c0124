public import Tessera

/// How ``Tessera/Application/test(_:_:)`` reaches the app.
public enum TestingMode: Sendable {
    /// Straight into the pipeline, no socket: fast, for controllers, pages and middleware.
    case inProcess
    /// A real ``TestServer`` on an ephemeral loopback port: for what the HTTP layer does.
    case live
}

extension Application {
    /// Runs `body` with a client of this app, the way HummingbirdTesting's `app.test(.router)`
    /// and ASP.NET's `WebApplicationFactory` do: the same test runs in process or against a live
    /// server by changing `mode`. A live server is stopped when `body` returns or throws.
    public func test<Result: Sendable>(
        _ mode: TestingMode = .inProcess,
        _ body: (TestClient) async throws -> Result
    ) async throws -> Result {
        switch mode {
        case .inProcess:
            return try await body(TestClient(InProcessTransport(self)))
        case .live:
            let server = try await TestServer.start(responder: self, errorResponder: self)
            do {
                let result = try await body(TestClient(port: server.port))
                try await server.stop()
                return result
            } catch {
                try? await server.stop()
                throw error
            }
        }
    }
}
