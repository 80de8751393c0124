import TesseraLoop
import TesseraPostgresDriver

/// One loop's connections for statements, used on that loop's thread only.
final class LoopPool: @unchecked Sendable {
    // @unchecked: every mutable field is touched on `loop`'s thread only.
    let loop: EventLoop
    private let address: PostgresAddress
    private let limit: Int
    private let connectTimeout: Duration
    private let statementTimeout: Duration
    private let queueLimits: PostgresQueueLimits
    private var connections: [LoopConnection] = []

    init(
        loop: EventLoop, address: PostgresAddress, limit: Int, connectTimeout: Duration, statementTimeout: Duration,
        queueLimits: PostgresQueueLimits
    ) {
        self.loop = loop
        self.address = address
        self.limit = limit
        self.connectTimeout = connectTimeout
        self.statementTimeout = statementTimeout
        self.queueLimits = queueLimits
    }

    /// An idle connection; else a new one while there is room; else the one with the fewest
    /// statements waiting, behind which this one queues. A connection whose oldest statement
    /// has waited longer than ``slowStatement`` is busy with a slow one: it is taken only when
    /// every connection is, so a slow statement holds up no request that has another way.
    /// When the loop holds ``PostgresQueueLimits/perLoop`` statements, or every connection its
    /// share, the caller hears `DatabaseUnavailable` at once rather than join the queue.
    func connection() throws -> LoopConnection {
        var least: LoopConnection?
        var leastOfAll: LoopConnection?
        var held = 0
        let now = ContinuousClock.now
        for connection in connections {
            if connection.inFlight == 0, connection.isOpen { return connection }
            held += connection.inFlight
            guard connection.hasRoom else { continue }
            if leastOfAll == nil || connection.inFlight < leastOfAll!.inFlight { leastOfAll = connection }
            if let sentAt = connection.oldestSentAt, now - sentAt > Self.slowStatement { continue }
            if least == nil || connection.inFlight < least!.inFlight { least = connection }
        }
        guard held < queueLimits.perLoop else { throw DatabaseUnavailable(reason: "\(held) statements already wait on this loop") }
        if connections.count < limit { return open() }
        guard let chosen = least ?? leastOfAll else { throw DatabaseUnavailable(reason: "every connection of this loop holds its share") }
        return chosen
    }

    /// How long a statement may go unanswered before its connection counts as busy with it:
    /// far above a round trip (well under a millisecond on one machine) and a loaded queue.
    static let slowStatement: Duration = .milliseconds(25)

    private func open() -> LoopConnection {
        let connection = LoopConnection(
            address: address, loop: loop, connectTimeout: connectTimeout, statementTimeout: statementTimeout, limits: queueLimits)
        // Weak: a connection may close (its server gone) after the pool has been dropped.
        connection.closedBecause = { [weak self, weak connection] _ in
            self?.connections.removeAll { $0 === connection }
        }
        if !connection.isClosed { connections.append(connection) }
        return connection
    }

    func closeAll() {
        for connection in connections { connection.close() }
        connections = []
    }
}
