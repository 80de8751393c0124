public import Foundation
public import Tessera

/// How a ``TestClient`` reaches the app: in process, or over a real socket.
public protocol TestTransport: Sendable {
    /// Sends one request and returns the whole response.
    func execute(method: String, target: String, headers: [(String, String)], body: [UInt8]) async throws -> TestResponse
}

/// Sends each request straight into the application's pipeline, with no socket: what
/// HummingbirdTesting's `.router` mode and ASP.NET's `TestServer` do. Fast, and it sees exactly
/// what the app answers; the server's own work (framing, default headers, limits, `HEAD`) is
/// not in the picture, so test that with ``LiveTransport``.
public struct InProcessTransport: TestTransport {
    let application: Application

    /// Sends into `application` without a socket.
    public init(_ application: Application) {
        self.application = application
    }

    /// Builds the request as the server would, runs it through the app, and collects the body.
    public func execute(method: String, target: String, headers: [(String, String)], body: [UInt8]) async throws -> TestResponse {
        var fields = RequestHeaders()
        for (name, value) in headers { fields.append(name: name, value: value) }
        let method = HTTPRequest.Method(method) ?? .get
        let response: Response
        switch Result(catching: { () throws(HTTPError) in try Request(method: method, target: target, headers: fields, body: body) }) {
        case .success(let request):
            do {
                response = try await application.respond(to: request)
            } catch {
                response = await application.response(for: error, to: request)
            }
        case .failure(let refused):
            // A target the server itself refuses: answered as the server would.
            response = await application.response(for: refused, to: Request(method: method, path: "", target: target, headers: fields))
        }
        return TestResponse(
            status: response.status.code,
            headers: response.headers.map { ($0.name.rawName, $0.value) },
            body: try await response.body.collect()
        )
    }
}

/// Sends each request over a real loopback connection to a ``TestServer``.
public struct LiveTransport: TestTransport {
    /// The live server's loopback port.
    public let port: Int
    /// How long one answer may take, in seconds, before the request throws.
    public let timeout: TimeInterval

    /// Sends to the server on `127.0.0.1:port`; an answer may take up to `timeout` seconds.
    ///
    /// The default is generous because it only stops a test that hangs: it is not a speed goal
    /// (those are benchmarks). With a whole suite running on a busy 2-core machine, an answer that
    /// signs someone in (600,000 PBKDF2 rounds) was seen to take longer than 10 s.
    public init(port: Int, timeout: TimeInterval = 30) {
        self.port = port
        self.timeout = timeout
    }

    /// One request on a new connection, with `Connection: close`.
    public func execute(method: String, target: String, headers: [(String, String)], body: [UInt8]) async throws -> TestResponse {
        let (port, timeout) = (self.port, self.timeout)
        let fields = Dictionary(headers, uniquingKeysWith: { _, last in last })
        return try await onThread {
            try RawHTTPClient.request(port: port, target, method: method, headers: fields, body: body, timeout: timeout)
        }
    }
}
