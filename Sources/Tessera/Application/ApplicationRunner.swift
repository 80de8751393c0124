import Logging
import ServiceLifecycle
import TesseraHTTP

/// Runs an HTTP server until SIGTERM or SIGINT, then shuts it down gracefully and returns, so the
/// process exits 0, which is what container platforms expect from a clean stop.
public enum ApplicationRunner {
    /// Serves a Tessera app: its pipeline answers every request, and the requests the server
    /// refuses on its own.
    public static func run(settings: ServerSettings, application: Application, logger: Logger) async throws {
        try await run(settings: settings, responder: application, errorResponder: application, state: application.serverState, logger: logger)
    }

    /// Serves any responder, for programs that use the HTTP layer without the framework's pipeline.
    public static func run(
        settings: ServerSettings,
        responder: some HTTPResponder,
        errorResponder: some HTTPErrorResponder = PlainErrorResponder(),
        state: HTTPServerState = HTTPServerState(),
        logger: Logger
    ) async throws {
        let server = HTTPServer(
            configuration: settings.httpConfiguration,
            responder: responder,
            errorResponder: errorResponder,
            logger: logger,
            state: state
        )
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [server],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        try await group.run()
    }
}
