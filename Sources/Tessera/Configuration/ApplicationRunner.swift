import Logging
import ServiceLifecycle
import TesseraHTTP

/// Runs an HTTP server until SIGTERM or SIGINT, then shuts it down gracefully and returns,
/// so the process exits 0, which is what container platforms expect from a clean stop.
public enum ApplicationRunner {
    public static func run(
        settings: ServerSettings,
        responder: some HTTPResponder,
        errorResponder: some HTTPErrorResponder = PlainErrorResponder(),
        logger: Logger
    ) async throws {
        let server = HTTPServer(
            configuration: settings.httpConfiguration,
            responder: responder,
            errorResponder: errorResponder,
            logger: logger
        )
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [server],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        try await group.run()
    }
}
