import PostgresNIO
import Tessera

/// One connection of a ``PostgresConnections`` pool, held for the statements of one
/// ``PostgresConnections/withConnection(_:)`` body; it must not outlive the body.
public struct PostgresLease: Sendable {
    let connection: PostgresConnection
    let logger: Logger

    /// The rows of a prepared statement, prepared once on this connection, as
    /// ``PostgresConnections/execute(_:)`` runs it; a client span in a traced request.
    public func execute<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        try await RequestTracing.withChildSpan("db.execute", ofKind: .client) { span in
            span?.attributes["db.system.name"] = "postgresql"
            span?.attributes["db.query.text"] = Statement.sql
            return try await untracedExecute(statement)
        }
    }

    /// The rows of each statement, in order, all queued on this connection at once: the
    /// connection runs the next as soon as one ends, without a round trip through this task
    /// between them.
    public func execute<Statement: PostgresPreparedStatement>(all statements: [Statement]) async throws -> [[Statement.Row]]
    where Statement.Row: Sendable {
        try await withThrowingTaskGroup(of: (Int, [Statement.Row]).self) { group in
            for (index, statement) in statements.enumerated() {
                group.addTask { (index, try await execute(statement)) }
            }
            var results = [[Statement.Row]](repeating: [], count: statements.count)
            for try await (index, rows) in group { results[index] = rows }
            return results
        }
    }

    func untracedExecute<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        var rows: [Statement.Row] = []
        for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
        return rows
    }
}
