import Dispatch
import PostgresNIO
import Synchronization

/// A bounded pool of PostgreSQL connections for stores that work the way GRDB's do: each unit
/// of work is synchronous on one connection (``BlockingConnection``), and async callers get it
/// run on the pool's own threads.
///
/// Why not PostgresNIO's `PostgresClient`: its work is async only, while the order transactions'
/// bodies and the session check are synchronous protocols shared with SQLite; and while the
/// database is unreachable its requests wait up to a minute for the pool's circuit breaker. Here
/// a connection is made when one is needed, within ``connectTimeout``, and a failed one is
/// dropped, so an outage answers at once (the storefront's 503) and the next request after it
/// connects again: no restart.
public final class PostgresConnections: Sendable {
    public let url: PostgresURL
    /// How many connections may be open at once: the most units of work that run together.
    public let size: Int
    public let connectTimeout: Duration
    /// How long one statement may wait for its answer before its connection counts as lost.
    public let statementTimeout: Duration

    private let configuration: PostgresConnection.Configuration
    private let idle = Mutex<[PostgresConnection]>([])
    private let slots: DispatchSemaphore
    private let threads: NIOThreadPool
    private let logger: Logger
    private let nextConnectionID = Atomic<Int>(0)

    public init(url: PostgresURL, size: Int = 10, connectTimeout: Duration = .seconds(5), statementTimeout: Duration = .seconds(15), logger: Logger) {
        precondition(size > 0, "a pool holds at least one connection")
        self.url = url
        self.size = size
        self.connectTimeout = connectTimeout
        self.statementTimeout = statementTimeout
        self.configuration = url.configuration(connectTimeout: connectTimeout)
        self.slots = DispatchSemaphore(value: size)
        self.threads = NIOThreadPool(numberOfThreads: size)
        self.logger = logger
        threads.start()
    }

    /// Runs `body` on a connection, on this thread, waiting for a free one if all ``size`` are
    /// busy. For synchronous callers only; async code calls ``read(_:)`` or ``write(_:)``.
    /// A database that cannot be reached throws ``DatabaseUnavailable``.
    ///
    /// - Parameter patience: how long to wait for a free connection and for each statement;
    ///   by default for ever and ``statementTimeout``. A caller on a thread that serves other
    ///   requests (a per-request check in a middleware step) passes a short one.
    @discardableResult
    public func withConnection<T>(patience: Duration? = nil, _ body: (BlockingConnection) throws -> T) throws -> T {
        if let patience {
            guard slots.wait(timeout: .now() + patience.dispatchInterval) == .success else {
                throw DatabaseUnavailable(reason: "all \(size) connections stayed busy for \(patience)")
            }
        } else {
            slots.wait()
        }
        defer { slots.signal() }
        let connection = try checkOut()
        do {
            let value = try body(blocking(connection, timeout: patience ?? statementTimeout))
            idle.withLock { $0.append(connection) }
            return value
        } catch {
            keepOrClose(connection, after: error)
            throw Self.isUnavailable(error) ? DatabaseUnavailable(error) : error
        }
    }

    /// Runs `body` in one transaction on this thread: committed when it returns, rolled back
    /// when it throws. `begin` may ask for another isolation level or a read-only transaction.
    public func withTransaction<T>(begin: PostgresQuery = "BEGIN", _ body: (BlockingConnection) throws -> T) throws -> T {
        try withConnection { connection in
            try connection.execute(begin)
            do {
                let value = try body(connection)
                try connection.execute("COMMIT")
                return value
            } catch {
                // A lost connection has no transaction left to roll back (and a ROLLBACK would
                // only wait behind the statement that hung). A failed ROLLBACK leaves the
                // transaction open: the connection is then dropped, not reused.
                guard !Self.isUnavailable(error) else { throw error }
                do {
                    try connection.execute("ROLLBACK")
                } catch let rollback {
                    throw DatabaseUnavailable(rollback)
                }
                throw error
            }
        }
    }

    /// Runs `body` on one of the pool's threads, in a read-only transaction that sees one
    /// snapshot (repeatable read), as GRDB's `read` does: a listing's count and its page, or an
    /// order and its payment, come from the same moment.
    @discardableResult
    public func read<T: Sendable>(_ body: @escaping @Sendable (BlockingConnection) throws -> T) async throws -> T {
        try await threads.runIfActive { try self.withTransaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body) }
    }

    /// Runs `body` on one of the pool's threads with no transaction around it: for statements
    /// that cannot run in one (`CREATE DATABASE`, `VACUUM`). Each statement commits by itself.
    @discardableResult
    public func withoutTransaction<T: Sendable>(_ body: @escaping @Sendable (BlockingConnection) throws -> T) async throws -> T {
        try await threads.runIfActive { try self.withConnection(body) }
    }

    /// Runs `body` in one transaction, on one of the pool's threads.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (BlockingConnection) throws -> T) async throws -> T {
        try await threads.runIfActive { try self.withTransaction(body) }
    }

    /// Runs `body` while this process holds the advisory lock `key`: instances that do the same
    /// take turns (each waits up to ``lockPatience``). The lock is held on a connection of its
    /// own for as long as `body` runs, so `body` may use the pool as usual (the pool needs at
    /// least two connections).
    public func withAdvisoryLock<T: Sendable>(_ key: Int64, _ body: () async throws -> T) async throws -> T {
        precondition(size > 1, "the lock holds a connection while the body uses another")
        let holder = try await threads.runIfActive { () -> PostgresConnection in
            self.slots.wait()
            do {
                let connection = try self.checkOut()
                do {
                    try self.blocking(connection, timeout: Self.lockPatience).execute("SELECT pg_advisory_lock(\(key))")
                    return connection
                } catch {
                    self.keepOrClose(connection, after: error)
                    throw Self.isUnavailable(error) ? DatabaseUnavailable(error) : error
                }
            } catch {
                self.slots.signal()
                throw error
            }
        }
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body())
        } catch {
            outcome = .failure(error)
        }
        // Unlocked on the pool's threads; if they no longer run (shut down, or this task was
        // cancelled first), closing the session releases the lock as well.
        let unlocked = (try? await threads.runIfActive { () -> Bool in
            defer { self.slots.signal() }
            do {
                try self.blocking(holder, timeout: self.statementTimeout).execute("SELECT pg_advisory_unlock(\(key))")
                self.idle.withLock { $0.append(holder) }
            } catch {
                self.keepOrClose(holder, after: error)
            }
            return true
        }) ?? false
        if !unlocked {
            try? await holder.close()
            slots.signal()
        }
        return try outcome.get()
    }

    /// How long an instance waits for another's advisory lock: the other may be migrating.
    public static let lockPatience: Duration = .seconds(120)

    /// Closes the idle connections and stops the threads; work still running finishes first.
    public func shutdown() async {
        try? await threads.shutdownGracefully()
        for connection in idle.withLock({ connections in defer { connections = [] }; return connections }) {
            try? await connection.close()
        }
    }

    /// An idle connection that is still open, or a new one. The server closes its end when it
    /// stops; such a connection would take a query and never answer it.
    private func checkOut() throws -> PostgresConnection {
        while let connection = idle.withLock({ $0.popLast() }) {
            if !connection.isClosed { return connection }
        }
        return try connect()
    }

    private func blocking(_ connection: PostgresConnection, timeout: Duration) -> BlockingConnection {
        BlockingConnection(connection: connection, logger: logger, timeout: timeout.timeAmount)
    }

    /// A new connection; ``DatabaseUnavailable`` when the server cannot be reached or refuses
    /// it (a wrong password included: the database is unusable either way).
    private func connect() throws -> PostgresConnection {
        let id = nextConnectionID.add(1, ordering: .relaxed).newValue
        do {
            return try PostgresConnection.connect(on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration,
                                                  id: id, logger: logger).wait()
        } catch {
            throw DatabaseUnavailable(error)
        }
    }

    /// A connection goes back to the pool after an error that left it working (the server
    /// refused a statement, the body threw its own error); after one that means the database is
    /// unavailable it may be half-closed, so it is closed and dropped, and the next unit of work
    /// connects anew.
    private func keepOrClose(_ connection: PostgresConnection, after error: any Error) {
        if Self.isUnavailable(error) || connection.isClosed {
            try? connection.close().wait()
        } else {
            idle.withLock { $0.append(connection) }
        }
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
