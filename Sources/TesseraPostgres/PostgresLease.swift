import Tessera
import Tracing

/// One connection of an event loop, held for the statements of one
/// ``PostgresConnections/withConnection(within:_:)`` body; it must not outlive the body. Other
/// requests' statements may share the connection meanwhile, each with a Sync of its own.
public struct PostgresLease: @unchecked Sendable {
    // @unchecked: the connection is its loop's, and the body runs on that loop.
    let connection: LoopConnection
    let deadline: ContinuousClock.Instant?

    /// The rows of a prepared statement, prepared once on this connection, as
    /// ``PostgresConnections/execute(_:within:)->[Statement.Row]`` runs it; a client span in a traced request.
    public func execute<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        try await RequestTracing.withChildSpan("db.execute", ofKind: .client) { span in
            span?.attributes["db.system.name"] = "postgresql"
            span?.attributes["db.query.text"] = Statement.sql
            return try await untracedExecute(statement)
        }
    }

    /// The rows of each statement, in order, all sent on this connection at once: the server
    /// runs the next as soon as one ends, without a round trip between them, and this task
    /// waits once for all of them. One client span for the batch in a traced request.
    public func execute<Statement: PostgresPreparedStatement>(all statements: [Statement]) async throws -> [[Statement.Row]]
    where Statement.Row: Sendable {
        try await RequestTracing.withChildSpan("db.execute", ofKind: .client) { span in
            span?.attributes["db.system.name"] = "postgresql"
            span?.attributes["db.query.text"] = Statement.sql
            span?.attributes["db.operation.batch.size"] = statements.count
            let answers = try await connection.runPreparedBatch(Statement.self, binds: statements.map { try $0.makeBindings() }, deadline: deadline)
            return try zip(statements, answers).map { statement, answer in try answer.rows.map(statement.decodeRow) }
        }
    }

    /// The rows of one statement, on this connection.
    public func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await connection.run(query, deadline: deadline).rows
    }

    func untracedExecute<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        let answer = try await connection.runPrepared(
            Statement.self, binds: try statement.makeBindings(),
            deadline: deadline)
        return try answer.rows.map(statement.decodeRow)
    }
}
