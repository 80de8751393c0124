import HTTPTypes
public import Logging
public import ServiceLifecycle
import Synchronization

/// The HTTP server: libmicrohttpd underneath, an ``HTTPResponder`` on top.
///
/// It serves on event loops (``EventLoops``), one libmicrohttpd daemon on each, all accepting
/// from one socket: a request's task starts on the loop that read it and prefers it, so it
/// resumes there after every wait. Give it the app's group when the app keeps other work on
/// the same loops (its PostgreSQL connections); given none, it starts one of its own, of
/// ``HTTPServerConfiguration/threads`` loops, for as long as it runs.
///
/// It is a swift-service-lifecycle `Service`, so a `ServiceGroup` runs it next to anything else
/// the app needs and turns SIGTERM/SIGINT into a graceful shutdown: stop accepting, let
/// in-flight requests finish within ``HTTPServerConfiguration/shutdownGracePeriod``, answer
/// what is still waiting with a 503, then return.
public final class HTTPServer: Service {
    /// What the server was started with.
    public let configuration: HTTPServerConfiguration
    private let responder: any HTTPResponder
    private let errorResponder: any HTTPErrorResponder
    private let logger: Logger
    private let state: HTTPServerState
    private let name: String?
    private let eventLoops: EventLoops?
    private let onServerRunning: @Sendable (Int) async -> Void

    /// - Parameters:
    ///   - state: where the server reports its phase and connections, for the app's readiness
    ///     check and metrics.
    ///   - name: what the server is for, when it is not the app's main server: it then logs
    ///     `metrics on http://…` where the main one logs `listening on http://…`.
    ///   - eventLoops: the loops to serve on (as many of them as the configuration's threads);
    ///     `nil` starts a group of the server's own.
    ///   - onServerRunning: called with the bound port once the server accepts connections; with
    ///     `port: 0` this is how callers learn which port they got.
    public init(
        configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        responder: some HTTPResponder,
        errorResponder: some HTTPErrorResponder = PlainErrorResponder(),
        logger: Logger = Logger(label: "tessera.http"),
        state: HTTPServerState = HTTPServerState(),
        name: String? = nil,
        eventLoops: EventLoops? = nil,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        self.name = name
        self.eventLoops = eventLoops
        self.configuration = configuration
        self.responder = responder
        self.errorResponder = errorResponder
        self.logger = logger
        self.state = state
        self.onServerRunning = onServerRunning
    }

    /// Serves until the service group asks for a graceful shutdown, then drains within the grace period.
    public func run() async throws {
        let connectionLimit = OpenFileLimit.raise(wantingConnections: configuration.limits.maxConnections, logger: logger)
        let core = ServerCore(
            responder: responder, errorResponder: errorResponder, configuration: configuration,
            connectionLimit: connectionLimit, logger: logger
        )
        let threads = max(1, configuration.threads)
        let ownLoops = eventLoops == nil ? EventLoops(count: threads) : nil
        let loops = Array((eventLoops ?? ownLoops!).loops.prefix(threads))
        let daemons: Daemons
        do {
            daemons = try Daemons(core: core, configuration: configuration, loops: loops)
        } catch {
            await ownLoops?.shutdown()
            throw error
        }
        state.serving(core)
        core.logger.notice(
            "\(name.map { "\($0) on" } ?? "listening on") http://\(displayHost):\(daemons.port)",
            metadata: [
                "port": "\(daemons.port)", "threads": "\(loops.count)", "connectionLimit": "\(connectionLimit)",
            ])
        await onServerRunning(daemons.port)

        // Four times a second, on the first loop's clock: a look with nothing to give back
        // allocates nothing, so an idle server stays idle.
        let trimLoop = loops[0]
        let trimmer = await trimLoop.submit {
            var memory = IdleMemory()
            return trimLoop.schedule(after: .milliseconds(250), repeating: .milliseconds(250)) {
                memory.look(inFlight: core.inFlight.load(ordering: .relaxed))
            }
        }
        try? await gracefulShutdown()
        trimLoop.execute { trimLoop.cancel(trimmer) }
        await shutDown(daemons, core: core)
        await ownLoops?.shutdown()
    }

    private func shutDown(_ daemons: Daemons, core: ServerCore) async {
        let grace = configuration.shutdownGracePeriod
        state.enter(.draining)
        let drainDelay = configuration.drainDelay
        if drainDelay > .zero {
            // Readiness already answers 503; keep serving until the balancer has noticed.
            core.logger.notice("draining: still accepting while readiness answers 503", metadata: ["drainDelay": "\(drainDelay)"])
            await Task.detached { try? await Task.sleep(for: drainDelay) }.value
        }
        core.logger.notice("shutting down", metadata: ["inFlight": "\(core.inFlight.load(ordering: .relaxed))"])
        core.isShuttingDown.store(true, ordering: .relaxed)
        await daemons.quiesce()
        // Detached: the waiting must happen even when our own task is cancelled.
        await Task.detached {
            let clock = ContinuousClock()
            let deadline = clock.now + grace
            while core.inFlight.load(ordering: .relaxed) > 0, clock.now < deadline {
                try? await clock.sleep(for: .milliseconds(10))
            }
            await daemons.closeSuspensions()
            // libmicrohttpd aborts when stopped with a connection suspended: answer each one still
            // waiting, and wait until every answer is handed over, however long its page takes.
            var warned = false
            while true {
                let (expired, suspended) = await daemons.expireWaiting(reason: HTTPError(.shuttingDown))
                if expired > 0, !warned {
                    warned = true
                    core.logger.warning("grace period over; answering waiting requests with 503", metadata: ["count": "\(expired)"])
                }
                if suspended == 0 { break }
                try? await clock.sleep(for: .milliseconds(10))
            }
            // Let the last answers go out before the daemon closes their connections.
            let flushDeadline = clock.now + .seconds(1)
            while core.inFlight.load(ordering: .relaxed) > 0, clock.now < flushDeadline {
                try? await clock.sleep(for: .milliseconds(10))
            }
        }.value
        await daemons.stop()
        state.enter(.stopped)
        core.logger.notice("stopped")
    }

    private var displayHost: String {
        switch configuration.host {
        case "0.0.0.0", "::", "": "localhost"
        case let host where host.contains(":"): "[\(host)]"
        case let host: host
        }
    }
}
