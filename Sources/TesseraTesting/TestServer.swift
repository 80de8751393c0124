import Foundation
public import Logging
public import ServiceLifecycle
import Synchronization
public import TesseraHTTP

/// A real `HTTPServer` on an ephemeral loopback port, run inside a `ServiceGroup` like an app.
public struct TestServer: Sendable {
    /// The ephemeral loopback port the server listens on.
    public let port: Int
    /// The server's phase and its open connections, as the app's readiness sees them.
    public let state: HTTPServerState
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// Starts a server for `responder` on a free loopback port, with `threads` threads (two by
    /// default), `limits` and `trustedProxies`, and `services` beside it (an app's
    /// ``Application/services``), on `eventLoops` when the test keeps other work on the same
    /// loops (else on loops of the server's own), logging to `logger` when given (else at
    /// `TESSERA_TEST_LOG`'s level, `critical` by default); returns once it listens.
    public static func start(
        threads: Int = 2,
        limits: HTTPServerLimits = HTTPServerLimits(),
        shutdownGrace: Duration = .seconds(5),
        trustedProxies: TrustedProxies = TrustedProxies(),
        responder: some HTTPResponder,
        errorResponder: some HTTPErrorResponder = PlainErrorResponder(),
        services: [any Service] = [],
        eventLoops: EventLoops? = nil,
        logger: Logger? = nil
    ) async throws -> TestServer {
        let state = HTTPServerState()
        let logger =
            logger
            ?? {
                var logger = Logger(label: "test")
                logger.logLevel = ProcessInfo.processInfo.environment["TESSERA_TEST_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
                return logger
            }()
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                host: "127.0.0.1", port: 0, threads: threads, limits: limits, shutdownGracePeriod: shutdownGrace, trustedProxies: trustedProxies),
            responder: responder,
            errorResponder: errorResponder,
            logger: logger,
            state: state,
            eventLoops: eventLoops,
            onServerRunning: { port in portContinuation.yield(port) }
        )
        // After the server, as ApplicationRunner orders them: a shutdown reaches them first.
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [server] + services, logger: logger))
        let running = Task { try await group.run() }
        var iterator = portStream.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        return TestServer(port: port, state: state, group: group, running: running)
    }

    /// Starts a server whose every request is answered by `handler`, for HTTP-layer tests.
    public static func start(
        limits: HTTPServerLimits = HTTPServerLimits(),
        trustedProxies: TrustedProxies = TrustedProxies(),
        _ handler: @escaping @Sendable (Request) async throws -> Response
    ) async throws -> TestServer {
        try await start(limits: limits, trustedProxies: trustedProxies, responder: ClosureResponder(handler))
    }

    /// Asks for a graceful shutdown and waits until the server has returned.
    public func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// A plain GET that must succeed: proof the server is still up after something nasty.
    public func assertServing(path: String = "/ok") async throws -> TestResponse {
        let port = self.port
        return try await onThread { try RawHTTPClient.request(port: port, path) }
    }
}
