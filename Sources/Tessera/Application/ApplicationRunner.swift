public import Logging
public import ServiceLifecycle
import TesseraHTTP
import UnixSignals

/// Runs an HTTP server until SIGTERM or SIGINT, then shuts it down gracefully and returns, so the
/// process exits 0, which is what container platforms expect from a clean stop.
public enum ApplicationRunner {
    /// Serves a Tessera app: its pipeline answers every request, and the requests the server
    /// refuses on its own.
    ///
    /// - Parameters:
    ///   - settings: where to listen, and how long to drain.
    ///   - application: the app; its ``Application/serverState`` reports the server's phase.
    ///   - metrics: the responder for `/metrics`, served on ``ServerSettings/metricsPort`` when
    ///     that is set, by a server of its own: the public port never shows metrics.
    ///   - outliving: what must stop after the servers, such as a trace exporter, which then
    ///     still exports the spans of the requests the drain finished.
    ///   - eventLoops: the loops to serve on, when the app keeps other work on them (its
    ///     PostgreSQL connections); `nil` gives the server loops of its own.
    ///   - logger: where the servers log.
    public static func run(
        settings: ServerSettings, application: Application, metrics: (any HTTPResponder)? = nil,
        outliving: [any Service] = [], eventLoops: EventLoops? = nil, logger: Logger
    ) async throws {
        try await run(
            settings: settings, responder: application, errorResponder: application, state: application.serverState, metrics: metrics,
            services: application.services, outliving: outliving, eventLoops: eventLoops, logger: logger)
    }

    /// Serves any responder, for programs that use the HTTP layer without the framework's pipeline.
    ///
    /// - Parameters:
    ///   - settings: where to listen, and how long to drain.
    ///   - responder: what answers every request.
    ///   - errorResponder: what answers the requests the server refuses on its own.
    ///   - state: where the server reports its phase and connections, for readiness and metrics.
    ///   - metrics: the responder for `/metrics` on ``ServerSettings/metricsPort``, if any.
    ///   - services: what runs beside the servers, such as the app's ``LiveRegions``.
    ///   - outliving: what must stop after the servers, such as a trace exporter.
    ///   - eventLoops: the loops to serve on; `nil` gives the server loops of its own.
    ///   - logger: where the servers log.
    public static func run(
        settings: ServerSettings,
        responder: some HTTPResponder,
        errorResponder: some HTTPErrorResponder = PlainErrorResponder(),
        state: HTTPServerState = HTTPServerState(),
        metrics: (any HTTPResponder)? = nil,
        services: [any Service] = [],
        outliving: [any Service] = [],
        eventLoops: EventLoops? = nil,
        logger: Logger
    ) async throws {
        // A group stops its services last to first: these stop after the servers.
        var group: [any Service] = outliving
        group.append(
            HTTPServer(
                configuration: settings.httpConfiguration,
                responder: responder,
                errorResponder: errorResponder,
                logger: logger,
                state: state,
                eventLoops: eventLoops
            ))
        if let metrics, let port = settings.metricsPort {
            let configuration = HTTPServerConfiguration(host: settings.host, port: port, threads: 1, shutdownGracePeriod: .seconds(1))
            group.append(HTTPServer(configuration: configuration, responder: metrics, logger: logger, name: "metrics"))
        }
        // Last, so a graceful shutdown reaches them first: live streams end before the server
        // drains, instead of holding it for its whole grace period.
        group += services
        try await ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: group,
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        ).run()
    }
}
