public import Logging
import Synchronization
import Tessera
import TesseraHTTP

/// `LISTEN` on one channel, on a connection of its own outside the pool, for as long as the
/// task that runs it: what every instance uses to hear what the others changed.
///
/// When the connection drops (a restart of the database, a network cut, a terminated backend),
/// it connects again, waiting 0.2 s and doubling up to 5 s. A notification sent while nobody
/// listened is lost for good, so whoever relies on the channel must catch up each time
/// listening starts: ``run(started:received:interrupted:)`` says when.
///
/// A connection that only listens sends nothing, so a partition that closes nothing (a
/// firewall that drops a long-lived flow, a peer frozen mid-failover) would leave it deaf for as
/// long as TCP takes to notice, hours. So it sends a heartbeat whenever it has been quiet for
/// ``heartbeat``, and a heartbeat unanswered within another ``heartbeat`` counts the connection
/// as lost: silence is noticed within two heartbeats, and `interrupted` runs.
public struct PostgresListener: Sendable {
    public let channel: String
    /// How long the connection may be quiet before it sends a heartbeat, and how long the
    /// heartbeat may go unanswered.
    public let heartbeat: Duration
    private let connections: PostgresConnections
    private let logger: Logger

    /// A listener on `channel` of the database `connections` reach.
    public init(channel: String, connections: PostgresConnections, logger: Logger, heartbeat: Duration = .seconds(5)) {
        self.channel = channel
        self.heartbeat = heartbeat
        self.connections = connections
        self.logger = logger
    }

    /// Listens until the task is cancelled.
    ///
    /// - Parameters:
    ///   - started: runs each time listening begins, at first and after each reconnection,
    ///     before any notification heard since is `received`: the moment to catch up on what
    ///     was missed.
    ///   - received: each notification's payload, in the order they were sent.
    ///   - interrupted: the connection was lost; notifications may be missed until `started`
    ///     runs again.
    public func run(
        started: @Sendable () async -> Void, received: @escaping @Sendable (String) -> Void,
        interrupted: @Sendable () -> Void
    ) async {
        var delay = Duration.milliseconds(200)
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            do {
                try await listen(
                    again: attempt > 1,
                    started: {
                        await started()
                        delay = .milliseconds(200)
                    }, received: received)
                // The connection ended without an error: as lost as a dropped one.
                guard !Task.isCancelled else { return }
                interrupted()
            } catch {
                guard !Task.isCancelled else { return }
                interrupted()
                logger.warning(
                    "listener lost its connection",
                    metadata: [
                        "channel": "\(channel)", "error": "\(DatabaseUnavailable(error).reason)", "retryIn": "\(delay)",
                    ])
            }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(5))
        }
    }

    /// Listens on a connection of its own, on one of the app's loops, until it closes or the
    /// task is cancelled.
    private func listen(again: Bool, started: () async -> Void, received: @escaping @Sendable (String) -> Void) async throws {
        let loop = connections.eventLoops.next()
        let channel = self.channel
        try await withTaskExecutorPreference(loop) {
            let connection = LoopConnection(
                address: connections.address.named("tessera listen \(channel)"), loop: loop, connectTimeout: connections.connectTimeout,
                statementTimeout: heartbeat)
            connection.notified = { heard, payload in if heard == channel { received(payload) } }
            defer { connection.close() }
            _ = try await connection.run(PostgresQuery(unsafeSQL: "LISTEN \"\(channel)\""), deadline: .now + connections.connectTimeout)
            connection.keepAlive(every: heartbeat)
            if again { logger.notice("listening again", metadata: ["channel": "\(channel)"]) }
            await started()
            let ended = ConnectionEnd()
            await withTaskCancellationHandler {
                await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
                    if connection.isClosed { return closed.resume() }
                    connection.closedBecause = { _ in closed.resume() }
                    ended.arm(loop: loop, connection: connection)
                }
            } onCancel: {
                ended.cancel()
            }
        }
    }
}

/// Closes a listener's connection, on its loop, when the listening task is cancelled.
private final class ConnectionEnd: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = Mutex<(loop: EventLoop, connection: LoopConnection)?>(nil)
    private let cancelled = Atomic<Bool>(false)

    func arm(loop: EventLoop, connection: LoopConnection) {
        lock.withLock { $0 = (loop, connection) }
        if cancelled.load(ordering: .acquiring) { cancel() }
    }

    func cancel() {
        cancelled.store(true, ordering: .releasing)
        guard let (loop, connection) = lock.withLock({ $0 }) else { return }
        loop.execute { connection.close() }
    }
}
