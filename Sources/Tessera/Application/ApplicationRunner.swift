import Logging
import ServiceLifecycle
import TesseraHTTP

/// Runs an app's HTTP server until SIGTERM or SIGINT, then shuts it down gracefully and returns,
/// so the process exits 0, which is what container platforms expect from a clean stop.
public enum ApplicationRunner {
    public static func run(settings: ServerSettings, application: Application, logger: Logger) async throws {
        let server = HTTPServer(
            configuration: settings.httpConfiguration,
            responder: application,
            errorResponder: application,
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
