import HTTPTypes
import Logging
import Synchronization
import TesseraHTTP

/// The two answers container platforms and load balancers ask for, as Kubernetes names them:
/// - `GET /healthz`, *liveness*: the process answers. It touches nothing else, so a slow
///   database never gets a healthy process restarted.
/// - `GET /readyz`, *readiness*: every ``ReadinessCheck`` passes and the server is not draining.
///   A 503 tells a balancer to send elsewhere, without restarting anything. From a shutdown
///   signal on it is 503, so with a drain delay (`DRAIN_DELAY`) a balancer stops
///   sending before the process stops accepting. It answers at once from the latest run of the
///   checks, and starts the next run when that one is over a second old; only the very first
///   probe waits for a run (at most the timeout). A check that hangs (a stalled database) thus
///   never holds a probe: it counts as failing once it has not answered within the timeout.
///
/// Both are plain text and never cached.
public struct HealthModule: FeatureModule {
    /// `GET /healthz`.
    public static let live = Route<NoParameters>("health.live", .get, "/healthz")
    /// `GET /readyz`.
    public static let ready = Route<NoParameters>("health.ready", .get, "/readyz")

    private let checks: [any ReadinessCheck]
    private let timeout: Duration
    private let freshness: Duration

    /// - Parameters:
    ///   - checks: what must answer before the app takes traffic.
    ///   - timeout: how long the checks together may take before readiness counts as failed;
    ///     a balancer's probe usually gives up after a few seconds.
    ///   - freshness: how old the latest run may be before a probe starts the next one.
    public init(checks: [any ReadinessCheck] = [], timeout: Duration = .seconds(2), freshness: Duration = .seconds(1)) {
        self.checks = checks
        self.timeout = timeout
        self.freshness = freshness
    }

    static let alive = PreparedResponse(headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"], body: Array("ok\n".utf8))

    /// Registers both routes.
    public func register(in app: inout ApplicationBuilder) {
        let state = app.serverState
        let monitor = ReadinessMonitor(checks: checks, timeout: timeout, freshness: freshness)
        app.routes.action(Self.live) { _, _ in Self.alive.response }
        app.routes.action(Self.ready) { _, context in
            switch state.phase {
            case .draining, .stopped:
                return Self.plain("draining\n", status: .serviceUnavailable)
            case .starting, .serving:
                let failing = await monitor.failingChecks(logger: context.logger)
                return failing.isEmpty
                    ? Self.plain("ready\n", status: .ok)
                    : Self.plain("not ready: \(failing.joined(separator: ", "))\n", status: .serviceUnavailable)
            }
        }
    }

    /// The names of the checks that threw or did not answer in time, each logged with its
    /// reason. A check that hangs is left running: readiness must answer within the timeout
    /// whatever the check does, and waiting for it, as a task group would, could take forever.
    fileprivate static func failingChecks(_ checks: [any ReadinessCheck], within timeout: Duration, logger: Logger) async -> [String] {
        guard !checks.isEmpty else { return [] }
        return await withCheckedContinuation { continuation in
            let run = ReadinessRun(checks: checks, timeout: timeout, logger: logger, continuation: continuation)
            // On the request's loop's clock: checks that answer in time leave no timer behind.
            let timer = Expiry.after(timeout, on: EventLoop.current) { run.finish() }
            for (index, check) in checks.enumerated() {
                Task {
                    var reason = ""
                    do { try await check.check() } catch { reason = String(describing: error) }
                    if run.record(index, reason: reason) {
                        timer.cancel()
                        run.finish()
                    }
                }
            }
        }
    }

    private static func plain(_ text: String, status: HTTPResponse.Status) -> Response {
        var response = Response.text(text, status: status)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

/// One `/readyz` request's checks: what each said, and the one answer, given when the last
/// check is in or the deadline passes, whichever comes first.
private final class ReadinessRun: Sendable {
    private let checks: [any ReadinessCheck]
    private let timeout: Duration
    private let logger: Logger
    /// Check (by position) → `""` when it passed, or why it failed.
    private let outcomes = Mutex<[Int: String]>([:])
    private let waiting: Mutex<CheckedContinuation<[String], Never>?>

    init(checks: [any ReadinessCheck], timeout: Duration, logger: Logger, continuation: CheckedContinuation<[String], Never>) {
        self.checks = checks
        self.timeout = timeout
        self.logger = logger
        self.waiting = Mutex(continuation)
    }

    /// Notes a check's outcome; true when it was the last one.
    func record(_ index: Int, reason: String) -> Bool {
        outcomes.withLock { outcomes in
            outcomes[index] = reason
            return outcomes.count == checks.count
        }
    }

    /// Answers with the failing checks, once; a check not heard from counts as timed out.
    func finish() {
        guard let continuation = waiting.withLock({ $0.take() }) else { return }
        let seen = outcomes.withLock { $0 }
        var failing: [String] = []
        for (index, check) in checks.enumerated() {
            switch seen[index] {
            case "": continue
            case let reason?: logger.warning("readiness check failed", metadata: ["check": "\(check.name)", "error": "\(reason)"])
            case nil: logger.warning("readiness check timed out", metadata: ["check": "\(check.name)", "timeout": "\(timeout)"])
            }
            failing.append(check.name)
        }
        continuation.resume(returning: failing)
    }
}

/// The latest run of the readiness checks, shared by every probe: a probe answers from it at
/// once, and starts the next run when it is older than `freshness`. Only a probe that finds no
/// run finished yet waits, for the first one.
private final class ReadinessMonitor: Sendable {
    private struct State {
        var latest: (failing: [String], at: ContinuousClock.Instant)?
        var running = false
        var waiting: [CheckedContinuation<[String], Never>] = []
    }

    private let checks: [any ReadinessCheck]
    private let timeout: Duration
    private let freshness: Duration
    private let state = Mutex(State())

    init(checks: [any ReadinessCheck], timeout: Duration, freshness: Duration) {
        self.checks = checks
        self.timeout = timeout
        self.freshness = freshness
    }

    func failingChecks(logger: Logger) async -> [String] {
        let now = ContinuousClock.now
        let (latest, startsRun) = state.withLock { state -> ([String]?, Bool) in
            let isFresh = state.latest.map { now - $0.at < freshness } ?? false
            let starts = !isFresh && !state.running
            if starts { state.running = true }
            return (state.latest?.failing, starts)
        }
        if startsRun {
            Task {
                let failing = await HealthModule.failingChecks(checks, within: timeout, logger: logger)
                let waiting = state.withLock { state in
                    state.latest = (failing, .now)
                    state.running = false
                    defer { state.waiting = [] }
                    return state.waiting
                }
                for waiter in waiting { waiter.resume(returning: failing) }
            }
        }
        if let latest { return latest }
        return await withCheckedContinuation { continuation in
            let finished = state.withLock { state -> [String]? in
                if let latest = state.latest { return latest.failing }
                state.waiting.append(continuation)
                return nil
            }
            if let finished { continuation.resume(returning: finished) }
        }
    }
}
