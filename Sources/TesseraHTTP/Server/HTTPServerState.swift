import Synchronization

/// What a running ``HTTPServer`` is doing, for the app that reports on it: a readiness check
/// answers 503 once the server drains, and metrics read its open connections.
///
/// The app and the server share one: the app is built first, so it cannot ask the server, and
/// the server must not know about the app's routes. Create one, hand it to both.
public final class HTTPServerState: Sendable {
    /// Where a server is in its life.
    public enum Phase: UInt8, Sendable {
        /// Not accepting connections yet.
        case starting
        /// Accepting and answering.
        case serving
        /// A shutdown signal arrived: in-flight requests finish, and a load balancer should stop
        /// sending. During ``HTTPServerConfiguration/drainDelay`` new connections are still accepted.
        case draining
        /// Every connection is closed.
        case stopped
    }

    private let phaseValue = Atomic<UInt8>(Phase.starting.rawValue)
    private let core = Mutex<ServerCore?>(nil)

    /// A server that has not started.
    public init() {}

    /// The current phase.
    public var phase: Phase {
        Phase(rawValue: phaseValue.load(ordering: .relaxed)) ?? .stopped
    }

    /// Connections open right now, those over the caps that are being refused included.
    public var openConnections: Int {
        core.withLock { $0?.connections.count } ?? 0
    }

    func serving(_ serverCore: ServerCore) {
        core.withLock { $0 = serverCore }
        phaseValue.store(Phase.serving.rawValue, ordering: .relaxed)
    }

    func enter(_ phase: Phase) {
        if phase == .stopped { core.withLock { $0 = nil } }
        phaseValue.store(phase.rawValue, ordering: .relaxed)
    }
}
