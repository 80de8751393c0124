/// How much work an event loop's connections hold before they refuse more.
///
/// A loop sends a request's statement at once when a connection has room, so a flood must
/// not turn into a backlog the database works through long after the flood has ended, for
/// callers that stopped waiting: at most ``window`` statements of a connection are on the
/// wire, the rest wait in the process, where one whose caller has gone is dropped unsent; and
/// past ``perConnection`` or ``perLoop`` statements, another is refused at once with
/// `DatabaseUnavailable` (a 503 with `Retry-After`) instead of joining the queue.
public struct PostgresQueueLimits: Sendable, Equatable {
    /// Statements on one connection's wire at once, sent and not answered: enough to keep the
    /// server busy between round trips, few enough that what it has queued drains quickly.
    public var window: Int
    /// Statements one connection holds in all, on the wire or waiting to go. Half the loop's
    /// by default: the loop sends a request elsewhere when a connection's oldest statement is
    /// slow, so under load one connection may take most of the loop's work for a while
    /// (TechEmpower's twenty queries from 64 clients on one loop put 1,280 on one connection).
    public var perConnection: Int
    /// Statements one loop's connections hold in all.
    public var perLoop: Int

    public init(window: Int = 32, perConnection: Int = 2048, perLoop: Int = 4096) {
        precondition(window > 0 && perConnection >= window && perLoop > 0, "a connection sends at least one statement")
        self.window = window
        self.perConnection = perConnection
        self.perLoop = perLoop
    }
}
