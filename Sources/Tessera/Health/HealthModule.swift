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
///   sending before the process stops accepting.
///
/// Both are plain text and never cached.
public struct HealthModule: FeatureModule {
    /// `GET /healthz`.
    public static let live = Route<NoParameters>("health.live", .get, "/healthz")
    /// `GET /readyz`.
    public static let ready = Route<NoParameters>("health.ready", .get, "/readyz")

    private let checks: [any ReadinessCheck]
    private let timeout: Duration

    /// - Parameters:
    ///   - checks: what must answer before the app takes traffic.
    ///   - timeout: how long the checks together may take before readiness counts as failed;
    ///     a balancer's probe usually gives up after a few seconds.
    public init(checks: [any ReadinessCheck] = [], timeout: Duration = .seconds(2)) {
        self.checks = checks
        self.timeout = timeout
    }

    static let alive = PreparedResponse(headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"], body: Array("ok\n".utf8))

    /// Registers both routes.
    public func register(in app: inout ApplicationBuilder) {
        let state = app.serverState
        let checks = checks
        let timeout = timeout
        app.routes.action(Self.live) { _, _ in Self.alive.response }
        app.routes.action(Self.ready) { _, context in
            switch state.phase {
            case .draining, .stopped:
                return Self.plain("draining\n", status: .serviceUnavailable)
            case .starting, .serving:
                let failing = await Self.failingChecks(checks, within: timeout, context: context)
                return failing.isEmpty
                    ? Self.plain("ready\n", status: .ok)
                    : Self.plain("not ready: \(failing.joined(separator: ", "))\n", status: .serviceUnavailable)
            }
        }
    }

    /// The names of the checks that threw or did not answer in time, each logged with its
    /// reason. A check that hangs is left running: readiness must answer within the timeout
    /// whatever the check does, and waiting for it, as a task group would, could take forever.
    private static func failingChecks(_ checks: [any ReadinessCheck], within timeout: Duration, context: RequestContext) async -> [String] {
        guard !checks.isEmpty else { return [] }
        let logger = context.logger
        return await withCheckedContinuation { continuation in
            let run = ReadinessRun(checks: checks, timeout: timeout, logger: logger, continuation: continuation)
            let timer = Task {
                try? await Task.sleep(for: timeout)
                run.finish()
            }
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
