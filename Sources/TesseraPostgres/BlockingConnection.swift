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

    /// The rows `query` returns, all of them.
    public func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        try connection.query(query, logger: logger).wait().rows
    }

    /// Runs a statement and returns how many rows it changed.
    @discardableResult
    public func execute(_ query: PostgresQuery) throws -> Int {
        try connection.query(query, logger: logger).wait().metadata.rows ?? 0
    }
}

extension PostgresBindings {
    /// Integer values bound in order, `$1` first: for statements built from fragments, where
    /// string interpolation cannot number the placeholders.
    public init(_ values: Int...) {
        self.init(capacity: values.count)
        for value in values { append(value) }
    }
}
