import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization
import Tracing
import Tessera

/// A bounded pool of PostgreSQL connections.
///
/// Two ways to use one, for two kinds of work:
/// - ``query(_:)``: one statement, awaited in the caller's task. Nothing blocks a thread and
///   nothing hops to another one; a single statement sees one snapshot by itself, so a page's
///   reads are written as one statement each and need no transaction (no `BEGIN` and `COMMIT`
///   round trips).
/// - ``read(_:)``, ``write(_:)``, ``withoutTransaction(_:)``: a synchronous unit of work on one
///   connection (``BlockingConnection``), run on the pool's own threads. The order transactions'
///   bodies are synchronous protocols shared with SQLite, and a body that cannot suspend cannot
///   be interleaved with another on its connection.
///
/// A request waits for a free connection and for its work for its `DatabasePatience` at
/// most: past that it gets `DatabaseUnavailable` (a 503 with `Retry-After`), so a stalled
/// database never holds a request for long. The work it started finishes in the background and
/// gives its connection back then; a statement that gets no answer in ``statementTimeout``
/// counts its connection as lost. Work outside a request (migrations, seeding) waits up to
/// ``statementTimeout`` for a connection. A connection is made when one is needed, within ``connectTimeout``; a failed one is
/// dropped, so an outage answers at once and the next request after it connects again.
///
/// Why not PostgresNIO's `PostgresClient`: it waits up to a minute for its circuit breaker while
/// the database is unreachable, and it has no notion of a request's deadline.
public final class PostgresConnections: Sendable {
    public let url: PostgresURL
    /// How many connections may be open at once: the most statements that run together.
    public let size: Int
    public let connectTimeout: Duration
    /// How long one statement may wait for its answer before its connection counts as lost.
    public let statementTimeout: Duration

    private let configuration: PostgresConnection.Configuration
    private let state = Mutex(State())
    private let threads: NIOThreadPool
    private let logger: Logger
    private let nextConnectionID = Atomic<Int>(0)

    private struct State {
        var idle: [PostgresConnection] = []
        /// Connections open or being opened.
        var open = 0
        /// Callers waiting for a connection, first come first served.
        var waiting: [(id: Int, continuation: CheckedContinuation<Lease, any Error>)] = []
        var nextWaiter = 0
    }

    /// What a waiting caller is handed: a connection, or the right to open one.
    private enum Lease: Sendable {
        case connection(PostgresConnection)
        case opening
    }

    public init(url: PostgresURL, size: Int = 10, connectTimeout: Duration = .seconds(5), statementTimeout: Duration = .seconds(15),
                logger: Logger) {
        precondition(size > 0, "a pool holds at least one connection")
        self.url = url
        self.size = size
        self.connectTimeout = connectTimeout
        self.statementTimeout = statementTimeout
        self.configuration = url.configuration(connectTimeout: connectTimeout)
        self.threads = NIOThreadPool(numberOfThreads: size)
        self.logger = logger
        threads.start()
    }

    // MARK: One statement, in the caller's task

    /// The rows of one statement, run on its own (its own snapshot, no transaction), in this
    /// task: the way a page reads.
    ///
    /// In a traced request it is a client span whose `traceparent` goes along as a leading SQL
    /// comment, so `pg_stat_activity` and the server's log show which trace a slow query is in.
    public func query(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await RequestTracing.withChildSpan("db.query", ofKind: .client) { span in
            guard let span else { return try await untracedQuery(query) }
            var query = query
            span.attributes["db.system.name"] = "postgresql"
            span.attributes["db.query.text"] = query.sql
            if let traceparent = RequestTracing.traceparent(of: span) { query.sql = "/*traceparent='\(traceparent)'*/ " + query.sql }
            return try await untracedQuery(query)
        }
    }

    private func untracedQuery(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await withinPatience { deadline in
            let connection = try await lease(until: deadline)
            let answer: EventLoopFuture<PostgresQueryResult> = connection.query(query, logger: logger)
            // The connection goes back once the statement is over, however long the caller waited;
            // one whose statement never ends is closed, which ends the statement too.
            let timer = answer.eventLoop.scheduleTask(in: TimeAmount(statementTimeout)) { connection.close().whenComplete { _ in } }
            answer.whenComplete { outcome in
                timer.cancel()
                switch outcome {
                case .success: self.giveBack(connection)
                case .failure(let error): self.keepOrClose(connection, after: error)
                }
            }
            let patient = answer.eventLoop.makePromise(of: PostgresQueryResult.self)
            answer.cascade(to: patient)
            let impatience = answer.eventLoop.scheduleTask(in: TimeAmount(deadline - .now)) {
                patient.fail(DatabaseUnavailable(reason: "no answer in the request's patience"))
            }
            do {
                let result = try await patient.futureResult.get()
                impatience.cancel()
                return result.rows
            } catch {
                impatience.cancel()
                throw Self.isUnavailable(error) ? DatabaseUnavailable(error) : error
            }
        }
    }

    /// The rows of a prepared statement, in this task: prepared once on each connection that
    /// runs it (PostgresNIO keeps it by the statement type's name), then only bound and executed,
    /// so the server parses and plans it once per connection, not per request. The way a hot
    /// page reads. A statement still running at the request's deadline is ended with its
    /// connection, which is dropped.
    /// In a traced request it is a client span that names the statement (a prepared
    /// statement's text is fixed, so it carries no comment).
    public func execute<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        try await RequestTracing.withChildSpan("db.execute", ofKind: .client) { span in
            span?.attributes["db.system.name"] = "postgresql"
            span?.attributes["db.query.text"] = Statement.sql
            return try await untracedExecute(statement)
        }
    }

    private func untracedExecute<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        try await withConnection { try await $0.untracedExecute(statement) }
    }

    /// Runs `body` with one connection for all its statements, in this task: a request that
    /// runs several statements one after another (TechEmpower's twenty queries) waits for the
    /// pool once, not before each. The connection is ended at the request's deadline, as for
    /// ``execute(_:)``, and goes back to the pool when `body` returns.
    public func withConnection<T>(_ body: (PostgresLease) async throws -> T) async throws -> T {
        try await withinPatience { deadline in
            let connection = try await lease(until: deadline)
            let overdue = connection.eventLoop.scheduleTask(in: TimeAmount(deadline - .now)) { connection.close().whenComplete { _ in } }
            do {
                let value = try await body(PostgresLease(connection: connection, logger: logger))
                overdue.cancel()
                giveBack(connection)
                return value
            } catch {
                overdue.cancel()
                keepOrClose(connection, after: error)
                throw Self.isUnavailable(error) || connection.isClosed ? DatabaseUnavailable(error) : error
            }
        }
    }

    // MARK: Units of work on the pool's threads

    /// Runs `body` on one of the pool's threads, in a read-only transaction that sees one
    /// snapshot (repeatable read), as GRDB's `read` does: for reads that need several statements
    /// to see the same moment. A page's reads are single statements (``query(_:)``) instead: a
    /// transaction costs two more round trips.
    @discardableResult
    public func read<T: Sendable>(_ body: @escaping @Sendable (BlockingConnection) throws -> T) async throws -> T {
        try await onThread { connection in
            try Self.inTransaction(connection, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
        }
    }

    /// Runs `body` on one of the pool's threads with no transaction around it: for statements
    /// that cannot run in one (`CREATE DATABASE`, `VACUUM`). Each statement commits by itself.
    @discardableResult
    public func withoutTransaction<T: Sendable>(_ body: @escaping @Sendable (BlockingConnection) throws -> T) async throws -> T {
        try await onThread(body)
    }

    /// Runs `body` in one transaction, on one of the pool's threads: committed when it returns,
    /// rolled back when it throws.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (BlockingConnection) throws -> T) async throws -> T {
        try await onThread { connection in try Self.inTransaction(connection, begin: "BEGIN", body) }
    }

    /// Runs `body` while this process holds the advisory lock `key`: instances that do the same
    /// take turns, each waiting up to `patience` for the one before it, which should be longer
    /// than that one's `body` takes. The lock is held on a connection of its own for as long as
    /// `body` runs, so `body` may use the pool as usual (the pool needs at least two connections).
    public func withAdvisoryLock<T: Sendable>(
        _ key: Int64, waitingAtMost patience: Duration = lockPatience, _ body: () async throws -> T
    ) async throws -> T {
        precondition(size > 1, "the lock holds a connection while the body uses another")
        let holder = try await lease(until: .now + patience)
        do {
            _ = try await threads.runIfActive {
                try self.blocking(holder, timeout: patience).execute("SELECT pg_advisory_lock(\(key))")
            }
        } catch {
            keepOrClose(holder, after: error)
            throw Self.isUnavailable(error) ? DatabaseUnavailable(error) : error
        }
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body())
        } catch {
            outcome = .failure(error)
        }
        // Unlocked on the pool's threads; if they no longer run (shut down, or this task was
        // cancelled first), closing the session releases the lock as well.
        do {
            _ = try await threads.runIfActive {
                try self.blocking(holder, timeout: self.statementTimeout).execute("SELECT pg_advisory_unlock(\(key))")
            }
            giveBack(holder)
        } catch {
            abandon(holder)
        }
        return try outcome.get()
    }

    /// How long an instance waits for another's advisory lock by default: the other may be
    /// migrating, which takes seconds.
    public static let lockPatience: Duration = .seconds(120)

    /// Closes the idle connections and stops the threads; work still running finishes first.
    public func shutdown() async {
        try? await threads.shutdownGracefully()
        let (idle, waiting) = state.withLock { state in
            defer { state.idle = []; state.waiting = [] }
            return (state.idle, state.waiting)
        }
        for waiter in waiting { waiter.continuation.resume(throwing: DatabaseUnavailable(reason: "the pool is shut down")) }
        for connection in idle { try? await connection.close() }
    }

    /// Runs `body` with a connection on one of the pool's threads. A request waits for it for
    /// its patience at most; past that, the work goes on without it and gives its connection
    /// back when it ends.
    private func onThread<T: Sendable>(_ body: @escaping @Sendable (BlockingConnection) throws -> T) async throws -> T {
        try await RequestTracing.withChildSpan("db.transaction", ofKind: .client) { span in
            span?.attributes["db.system.name"] = "postgresql"
            return try await untracedOnThread(body)
        }
    }

    private func untracedOnThread<T: Sendable>(_ body: @escaping @Sendable (BlockingConnection) throws -> T) async throws -> T {
        try await withinPatience { deadline in
            let connection = try await lease(until: deadline)
            let work = Task {
                do {
                    let value = try await threads.runIfActive { try body(self.blocking(connection, timeout: self.statementTimeout)) }
                    giveBack(connection)
                    return value
                } catch {
                    keepOrClose(connection, after: error)
                    throw Self.isUnavailable(error) ? DatabaseUnavailable(error) : error
                }
            }
            return try await DatabasePatience.value(of: work, until: deadline)
        }
    }

    /// Runs one call within what is left of the current request's patience, or outside a request
    /// within ``statementTimeout``: `body` gets the instant it stops waiting at.
    private func withinPatience<T>(_ body: (ContinuousClock.Instant) async throws -> T) async throws -> T {
        try await DatabasePatience.call { deadline in try await body(deadline ?? .now + statementTimeout) }
    }

    private static func inTransaction<T>(_ connection: BlockingConnection, begin: PostgresQuery, _ body: (BlockingConnection) throws -> T) throws -> T {
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

    // MARK: The pool

    /// An idle connection that is still open, a new one, or the next one given back; waits
    /// until `deadline` at most when every connection is busy.
    private func lease(until deadline: ContinuousClock.Instant) async throws -> PostgresConnection {
        enum Next { case use(PostgresConnection), open, wait }
        let next = state.withLock { state -> Next in
            while let connection = state.idle.popLast() {
                if !connection.isClosed { return .use(connection) }
                state.open -= 1
            }
            guard state.open < size else { return .wait }
            state.open += 1
            return .open
        }
        switch next {
        case .use(let connection): return connection
        case .open: return try await open(until: deadline)
        case .wait:
            switch try await waitForLease(until: deadline) {
            case .connection(let connection): return connection
            case .opening: return try await open(until: deadline)
            }
        }
    }

    /// A new connection by `deadline`, or `DatabaseUnavailable`: a server that accepts the
    /// socket but does not answer (stopped, swapping) must not hold the caller longer than any
    /// other wait. One that opens too late goes to the next caller, or is kept idle.
    private func open(until deadline: ContinuousClock.Instant) async throws -> PostgresConnection {
        let opening = Task { try await open() }
        return try await DatabasePatience.value(of: opening, until: deadline, abandoned: { self.giveBack($0) })
    }

    private func waitForLease(until deadline: ContinuousClock.Instant) async throws -> Lease {
        let size = self.size
        let timer = Mutex<Task<Void, Never>?>(nil)
        defer { timer.withLock { $0?.cancel() } }
        return try await withCheckedThrowingContinuation { continuation in
            let id = state.withLock { state in
                defer { state.nextWaiter += 1 }
                state.waiting.append((state.nextWaiter, continuation))
                return state.nextWaiter
            }
            // Started once the caller waits, so the deadline cannot pass before it is there to find.
            timer.withLock {
                $0 = Task {
                    guard (try? await Task.sleep(until: deadline)) != nil else { return }
                    let waiter = self.state.withLock { state -> CheckedContinuation<Lease, any Error>? in
                        guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                        return state.waiting.remove(at: index).continuation
                    }
                    waiter?.resume(throwing: DatabaseUnavailable(reason: "all \(size) connections stayed busy"))
                }
            }
        }
    }

    /// A new connection, in the slot the caller took; `DatabaseUnavailable` when the server
    /// cannot be reached or refuses it (a wrong password included: the database is unusable
    /// either way), and the slot goes to the next caller.
    private func open() async throws -> PostgresConnection {
        let id = nextConnectionID.add(1, ordering: .relaxed).newValue
        do {
            return try await PostgresConnection.connect(on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration,
                                                        id: id, logger: logger).get()
        } catch {
            closed()
            throw DatabaseUnavailable(error)
        }
    }

    /// A connection whose work ended well: to the next caller waiting, else idle.
    private func giveBack(_ connection: PostgresConnection) {
        guard !connection.isClosed else { return abandon(connection) }
        let waiter = state.withLock { state -> CheckedContinuation<Lease, any Error>? in
            guard !state.waiting.isEmpty else {
                state.idle.append(connection)
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        waiter?.resume(returning: .connection(connection))
    }

    /// A connection not to use again: closed, and its slot to the next caller waiting.
    private func abandon(_ connection: PostgresConnection) {
        // Kept until its close completes: PostgresNIO traps on a connection freed still open.
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
        closed()
    }

    /// A slot came free: the next caller waiting opens a connection in it.
    private func closed() {
        let waiter = state.withLock { state -> CheckedContinuation<Lease, any Error>? in
            guard !state.waiting.isEmpty else {
                state.open -= 1
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        waiter?.resume(returning: .opening)
    }

    /// A connection goes back to the pool after an error that left it working (the server
    /// refused a statement, the body threw its own error); after one that means the database is
    /// unavailable it may be half-closed, so it is closed and dropped, and the next unit of work
    /// connects anew.
    private func keepOrClose(_ connection: PostgresConnection, after error: any Error) {
        if Self.isUnavailable(error) || connection.isClosed {
            abandon(connection)
        } else {
            giveBack(connection)
        }
    }

    private func blocking(_ connection: PostgresConnection, timeout: Duration) -> BlockingConnection {
        BlockingConnection(connection: connection, logger: logger, timeout: TimeAmount(timeout))
    }
}

extension PostgresConnections {
    /// Whether `error` means the database could not be reached or went away, rather than that
    /// it refused a statement: what a server answers with 503, and a connection not to reuse.
    static func isUnavailable(_ error: any Error) -> Bool {
        if error is DatabaseUnavailable || error is BlockingConnection.TimedOut { return true }
        guard let error = error as? PSQLError else { return error is ChannelError || error is IOError }
        switch error.code {
        case .server:
            // Shutting down, starting up, too many connections.
            guard let state = error.serverInfo?[.sqlState] else { return false }
            return state.hasPrefix("57P") || state == "53300" || state.hasPrefix("08")
        default:
            return true
        }
    }
}
