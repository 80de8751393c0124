import Dispatch
public import Logging
import Synchronization
public import Tessera
public import TesseraHTTP
import Tracing

/// PostgreSQL for an app: connections kept on its event loops for the statements its requests
/// read and write with, and a few more for synchronous transactions.
///
/// Two ways to use it, for two kinds of work:
/// - ``query(_:within:)``, ``execute(_:within:)->Int``, ``execute(_:within:)->[Statement.Row]``, ``withConnection(within:_:)``: statements awaited in the caller's
///   task, on the caller's event loop. Each loop keeps its own connections (libpq, non-blocking,
///   pipelined): a request's statement goes out on the thread that read the request, and its
///   answer resumes it there. Statements from many requests share a connection, each with a Sync
///   of its own, so none waits for another's answer; a loop opens another connection (up to its
///   share of ``size``) rather than queue behind one that is busy, so a slow statement holds up
///   nobody else.
/// - ``read(within:_:)``, ``write(within:_:)``, ``withoutTransaction(within:_:)``: a synchronous unit of work on one
///   connection (``BlockingConnection``), on a thread of its own. The order transactions'
///   bodies are synchronous protocols shared with SQLite, and a body that cannot suspend cannot
///   be interleaved with another on its connection.
///
/// A request waits for its work for its `DatabaseBudget`'s patience at most: past that it gets
/// `DatabaseUnavailable` (a 503 with `Retry-After`), so a stalled database never holds a
/// request for long; what it started finishes in the background. A statement unanswered in
/// ``statementTimeout`` counts its connection as lost. Connections are made when needed, within
/// ``connectTimeout``; a failed one is dropped, so an outage answers at once and the next request
/// after it connects again.
public final class PostgresConnections: Sendable {
    public let url: PostgresURL
    /// How many connections each kind of work may keep open at once: the loops share this many
    /// for statements, and transactions may use as many again.
    public let size: Int
    public let connectTimeout: Duration
    /// How long one statement may wait for its answer before its connection counts as lost.
    public let statementTimeout: Duration
    /// How much work each loop's connections hold before they refuse more.
    public let queueLimits: PostgresQueueLimits

    let eventLoops: EventLoops
    /// Where the loops' connections connect, the host name resolved off the loops.
    let address: PostgresAddress
    private let ownsEventLoops: Bool
    private let pools: [LoopPool]
    private let blocking: BlockingPool
    private let logger: Logger

    /// - Parameters:
    ///   - url: the database, from `DATABASE_URL`.
    ///   - size: how many connections each kind of work may keep open (``size``).
    ///   - connectTimeout: how long a new connection may take.
    ///   - statementTimeout: how long a statement may wait for its answer (``statementTimeout``).
    ///   - queueLimits: how much work each loop's connections hold (``queueLimits``).
    ///   - eventLoops: the loops the app serves on, so that a request's statements stay on its
    ///     thread; `nil` starts one loop of the pool's own (for commands and tests).
    ///   - logger: where connection failures are logged.
    public init(
        url: PostgresURL, size: Int = 10, connectTimeout: Duration = .seconds(5), statementTimeout: Duration = .seconds(15),
        queueLimits: PostgresQueueLimits = PostgresQueueLimits(), eventLoops: EventLoops? = nil, logger: Logger
    ) {
        precondition(size > 0, "a pool holds at least one connection")
        self.url = url
        self.size = size
        self.connectTimeout = connectTimeout
        self.statementTimeout = statementTimeout
        self.queueLimits = queueLimits
        self.eventLoops = eventLoops ?? EventLoops(count: 1)
        self.ownsEventLoops = eventLoops == nil
        self.logger = logger
        let loops = self.eventLoops.loops
        let perLoop = max(1, size / loops.count)
        address = PostgresAddress(url: url, resolver: HostResolver())
        pools = loops.map { [address] in
            LoopPool(
                loop: $0, address: address, limit: perLoop, connectTimeout: connectTimeout,
                statementTimeout: statementTimeout, queueLimits: queueLimits)
        }
        blocking = BlockingPool(
            conninfo: url.conninfo, size: size, connectTimeout: connectTimeout, statementTimeout: statementTimeout, eventLoops: self.eventLoops)
    }

    // MARK: Statements, in the caller's task

    /// The rows of one statement, run on its own (its own snapshot, no transaction), in this
    /// task: the way a page reads.
    ///
    /// In a traced request it is a client span whose `traceparent` goes along as a leading SQL
    /// comment, so `pg_stat_activity` and the server's log show which trace a slow query is in.
    public func query(_ query: PostgresQuery, within budget: DatabaseBudget) async throws -> [PostgresRow] {
        try await RequestTracing.withChildSpan("db.query", ofKind: .client) { span in
            guard let span else { return try await answer(query, prepare: true, within: budget).rows }
            var query = query
            span.attributes["db.system.name"] = "postgresql"
            span.attributes["db.query.text"] = query.sql
            // A comment that differs per request: this text is not worth preparing.
            guard let traceparent = RequestTracing.traceparent(of: span) else { return try await answer(query, prepare: true, within: budget).rows }
            query.sql = "/*traceparent='\(traceparent)'*/ " + query.sql
            return try await answer(query, prepare: false, within: budget).rows
        }
    }

    /// Runs one statement and returns how many rows it changed: a write that needs no
    /// transaction around it.
    @discardableResult
    public func execute(_ query: PostgresQuery, within budget: DatabaseBudget) async throws -> Int {
        try await RequestTracing.withChildSpan("db.query", ofKind: .client) { span in
            span?.attributes["db.system.name"] = "postgresql"
            span?.attributes["db.query.text"] = query.sql
            return try await answer(query, prepare: true, within: budget).changed
        }
    }

    private func answer(_ query: PostgresQuery, prepare: Bool, within budget: DatabaseBudget) async throws -> LoopConnection.Answer {
        try await onLoop(within: budget) { pool, deadline in
            try await pool.connection().run(query, deadline: deadline, prepare: prepare)
        }
    }

    /// The rows of a prepared statement, in this task: prepared once on each connection that
    /// runs it, then only bound and executed, so the server parses and plans it once per
    /// connection, not per request. The way a hot page reads. In a traced request it is a client
    /// span that names the statement (a prepared statement's text is fixed, so it carries no
    /// comment).
    public func execute<Statement: PostgresPreparedStatement>(_ statement: Statement, within budget: DatabaseBudget) async throws -> [Statement.Row] {
        try await RequestTracing.withChildSpan("db.execute", ofKind: .client) { span in
            span?.attributes["db.system.name"] = "postgresql"
            span?.attributes["db.query.text"] = Statement.sql
            return try await onLoop(within: budget) { pool, deadline in
                try await PostgresLease(connection: pool.connection(), deadline: deadline).untracedExecute(statement)
            }
        }
    }

    /// Runs `body` with one connection for all its statements, in this task: a request that
    /// runs several statements one after another (TechEmpower's twenty queries) sends them all
    /// on one connection, where they queue without waiting for each other.
    public func withConnection<T>(within budget: DatabaseBudget, _ body: (PostgresLease) async throws -> T) async throws -> T {
        try await onLoop(within: budget) { pool, deadline in
            try await body(PostgresLease(connection: pool.connection(), deadline: deadline))
        }
    }

    /// Runs `body` on the caller's event loop (or, outside the app's loops, on the next one),
    /// with that loop's connections and what is left of the request's patience.
    private func onLoop<T>(within budget: DatabaseBudget, _ body: (LoopPool, ContinuousClock.Instant?) async throws -> T) async throws -> T {
        try await budget.call { deadline in
            let deadline = deadline ?? .now + statementTimeout
            let loop = eventLoops.currentOrNext()
            let pool = pools[loop.index]
            if loop.inEventLoop { return try await body(pool, deadline) }
            return try await withTaskExecutorPreference(loop) { try await body(pool, deadline) }
        }
    }

    // MARK: Units of work on threads of their own

    /// Runs `body` on a thread of its own, in a read-only transaction that sees one snapshot
    /// (repeatable read), as GRDB's `read` does: for reads that need several statements to see
    /// the same moment. A page's reads are single statements (``query(_:within:)``) instead: a
    /// transaction costs two more round trips.
    @discardableResult
    public func read<T: Sendable>(within budget: DatabaseBudget, _ body: @escaping @Sendable (BlockingConnection) throws -> T) async throws -> T {
        try await onThread(within: budget) { connection in
            try Self.inTransaction(connection, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
        }
    }

    /// Runs `body` on a thread of its own with no transaction around it: for statements that
    /// cannot run in one (`CREATE DATABASE`, `VACUUM`). Each statement commits by itself.
    @discardableResult
    public func withoutTransaction<T: Sendable>(
        within budget: DatabaseBudget, _ body: @escaping @Sendable (BlockingConnection) throws -> T
    ) async throws -> T {
        try await onThread(within: budget, body)
    }

    /// Runs `body` in one transaction, on a thread of its own: committed when it returns, rolled
    /// back when it throws.
    @discardableResult
    public func write<T: Sendable>(within budget: DatabaseBudget, _ body: @escaping @Sendable (BlockingConnection) throws -> T) async throws -> T {
        try await onThread(within: budget) { connection in try Self.inTransaction(connection, begin: "BEGIN", body) }
    }

    /// Runs `body` while this process holds the advisory lock `key`: instances that do the same
    /// take turns, each waiting up to `patience` for the one before it, which should be longer
    /// than that one's `body` takes. The lock is held on a connection of its own for as long as
    /// `body` runs, so `body` may use the pool as usual.
    public func withAdvisoryLock<T: Sendable>(
        _ key: Int64, waitingAtMost patience: Duration = lockPatience, _ body: () async throws -> T
    ) async throws -> T {
        let holder = try await blocking.lease(until: .now + patience)
        do {
            try await blocking.run {
                holder.timeout = patience
                try holder.execute("SELECT pg_advisory_lock(\(key))")
            }
        } catch {
            blocking.giveBack(holder)
            throw Self.isUnavailable(error) ? DatabaseUnavailable(error) : error
        }
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body())
        } catch {
            outcome = .failure(error)
        }
        // Closing the session would release the lock as well, if the unlock fails.
        _ = try? await blocking.run {
            holder.timeout = self.statementTimeout
            try holder.execute("SELECT pg_advisory_unlock(\(key))")
        }
        blocking.giveBack(holder)
        return try outcome.get()
    }

    /// How long an instance waits for another's advisory lock by default: the other may be
    /// migrating, which takes seconds.
    public static let lockPatience: Duration = .seconds(120)

    /// Closes every connection; work still running finishes first.
    public func shutdown() async {
        for pool in pools { await pool.loop.submit { pool.closeAll() } }
        blocking.closeAll()
        if ownsEventLoops { await eventLoops.shutdown() }
    }

    /// Runs `body` with a connection on a thread of its own. A request waits for it for its
    /// patience at most; past that, the work goes on without it and gives its connection back
    /// when it ends.
    private func onThread<T: Sendable>(within budget: DatabaseBudget, _ body: @escaping @Sendable (BlockingConnection) throws -> T) async throws -> T
    {
        try await RequestTracing.withChildSpan("db.transaction", ofKind: .client) { span in
            span?.attributes["db.system.name"] = "postgresql"
            return try await budget.call { deadline in
                let deadline = deadline ?? .now + statementTimeout
                let blocking = self.blocking
                let work = Task {
                    let connection = try await blocking.lease(until: deadline)
                    defer { blocking.giveBack(connection) }
                    // The caller has had its 503 while this waited for a connection: a body run
                    // now would commit what the visitor was told did not happen.
                    try Task.checkCancellation()
                    do {
                        return try await blocking.run { try body(connection) }
                    } catch {
                        throw Self.isUnavailable(error) ? DatabaseUnavailable(error) : error
                    }
                }
                return try await DatabaseBudget.value(of: work, until: deadline, on: self.eventLoops.currentOrNext())
            }
        }
    }

    private static func inTransaction<T>(_ connection: BlockingConnection, begin: PostgresQuery, _ body: (BlockingConnection) throws -> T) throws -> T
    {
        try connection.execute(begin)
        do {
            let value = try body(connection)
            try connection.execute("COMMIT")
            return value
        } catch {
            // A lost connection has no transaction left to roll back (and a ROLLBACK would
            // only wait behind the statement that hung). A failed ROLLBACK leaves the
            // transaction open: the connection is then dropped, not reused.
            guard !isUnavailable(error) else { throw error }
            do {
                try connection.execute("ROLLBACK")
            } catch let rollback {
                throw DatabaseUnavailable(rollback)
            }
            throw error
        }
    }
}

extension PostgresConnections {
    /// Whether `error` means the database could not be reached or went away, rather than that
    /// it refused a statement: what a server answers with 503, and a connection not to reuse.
    static func isUnavailable(_ error: any Error) -> Bool {
        if error is DatabaseUnavailable { return true }
        if let error = error as? PostgresError { return error.meansUnavailable }
        return false
    }
}
