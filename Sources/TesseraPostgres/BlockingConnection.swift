import PostgresNIO

/// One PostgreSQL connection, lent for a unit of work that runs synchronously on the caller's
/// thread: a store's read, or a transaction's body.
///
/// Synchronous on purpose, as GRDB's `Database` is: the order transactions' bodies and the
/// per-request session check are synchronous protocols that both stores implement, and a body
/// that cannot suspend cannot be interleaved with another on the same connection. It waits on
/// the connection's event loop, so it must run on a thread that may block:
/// ``PostgresConnections`` runs async callers' work on its own threads.
public struct BlockingConnection {
    let connection: PostgresConnection
    let logger: Logger
    /// How long a statement may take before the connection is given up as lost.
    let timeout: TimeAmount

    /// The rows `query` returns, all of them.
    public func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        try wait(connection.query(query, logger: logger)).rows
    }

    /// Runs a statement and returns how many rows it changed.
    @discardableResult
    public func execute(_ query: PostgresQuery) throws -> Int {
        try wait(connection.query(query, logger: logger)).metadata.rows ?? 0
    }

    /// The future's value, or ``TimedOut`` after ``timeout``: a connection whose peer vanished
    /// without closing it (a dropped network) would otherwise hold the request for good.
    private func wait<T: Sendable>(_ future: EventLoopFuture<T>) throws -> T {
        let answer = future.eventLoop.makePromise(of: T.self)
        future.cascade(to: answer)
        let timer = future.eventLoop.scheduleTask(in: timeout) { answer.fail(TimedOut()) }
        defer { timer.cancel() }
        return try answer.futureResult.wait()
    }

    /// A statement got no answer in time; the connection is closed, not reused.
    struct TimedOut: Error, CustomStringConvertible {
        var description: String { "the database did not answer in time" }
    }
}
