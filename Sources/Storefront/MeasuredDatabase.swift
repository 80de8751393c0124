import GRDB
import Tessera
import TesseraHTTP
import TesseraSQLite
import Tracing

/// The storefront's database as the feature modules see it (``SQLiteDatabase``): the GRDB
/// pool, each call within its request's ``DatabaseBudget``, which also keeps its time for the
/// `http_request_database_seconds` metric.
///
/// Reads, awaited or not, run on the caller's thread through an ``InlineReader``: for reads
/// that take microseconds, GRDB's hop to a reader's queue and back (and the connection's
/// suspend and resume it forces on libmicrohttpd) cost more than the reads. They never wait for
/// the writer, nor for another process's write lock (WAL). Writes take turns (``WriterTurns``),
/// then go through the pool's writer queue, one transaction at a time, awaited without blocking
/// a thread, and a request waits for one until its budget's patience at most: past it
/// (another process holding the write lock, a line of writes ahead of it), the write leaves the
/// line or is rolled back, and the request is a ``DatabaseUnavailable``, a 503. A write that
/// finds the file locked by another process waits for it until its request's deadline
/// (``FileLockWait``), or five seconds outside a request (the mail worker's), and then is
/// unavailable too.
///
/// It is GRDB's `DatabaseWriter` as well, for migrations and the mail worker, which wait for no
/// request: every requirement forwards to the pool, with writes taking their turns.
final class MeasuredDatabase: DatabaseWriter, SQLiteDatabase {
    let pool: DatabasePool
    private let reader: InlineReader
    /// The writer's busy handler (``StorefrontDatabase/open(dataDirectory:lockWait:hasher:catalog:)``):
    /// each write waits for another process's lock until its request's deadline.
    private let lockWait: FileLockWait

    /// Where async writes wait for the writer, so a request leaves at its deadline.
    let turns = WriterTurns()

    init(_ pool: DatabasePool, lockWait: FileLockWait) {
        self.pool = pool
        self.reader = InlineReader(path: pool.path)
        self.lockWait = lockWait
    }

    var configuration: Configuration { pool.configuration }
    var path: String { pool.path }
    func close() throws { try pool.close() }
    func interrupt() { pool.interrupt() }

    // MARK: Reading

    var writer: any DatabaseWriter { self }

    func read<T: Sendable>(within budget: DatabaseBudget, _ value: @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try Self.traced("db.read") { try budget.measure { try reader.read(value) } }
    }

    func unsafeRead<T: Sendable>(within budget: DatabaseBudget, _ value: @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try budget.measure { try reader.unsafeRead(value) }
    }

    @_disfavoredOverload
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        try reader.read(value)
    }

    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try reader.read(value)
    }

    /// A client span for one call in a traced request (``RequestTracing``); nothing otherwise.
    private static func traced<T>(_ name: String, _ call: () throws -> T) rethrows -> T {
        try RequestTracing.withChildSpan(name, ofKind: .client) { span in
            span?.attributes["db.system.name"] = "sqlite"
            return try call()
        }
    }

    func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        pool.asyncRead(value)
    }

    /// A read of one statement, which needs no transaction: on the caller's thread too.
    @_disfavoredOverload
    func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try reader.unsafeRead(value)
    }

    func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try reader.unsafeRead(value)
    }

    func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        pool.asyncUnsafeRead(value)
    }

    func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try pool.unsafeReentrantRead(value)
    }

    func _add<Reducer: ValueReducer>(
        observation: ValueObservation<Reducer>,
        scheduling scheduler: some ValueObservationScheduler,
        onChange: @escaping @Sendable (Reducer.Value) -> Void
    ) -> AnyDatabaseCancellable {
        pool._add(observation: observation, scheduling: scheduler, onChange: onChange)
    }

    func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        pool.spawnConcurrentRead(value)
    }

    // MARK: Writing (GRDB's `write` and its transactions are built on these)

    /// One transaction within `budget`: committed when `updates` returns, rolled back when it
    /// throws, as GRDB's `write` is.
    func write<T: Sendable>(within budget: DatabaseBudget, _ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await RequestTracing.withChildSpan("db.write", ofKind: .client) { span in
            span?.attributes["db.system.name"] = "sqlite"
            return try await budget.call { deadline in
                try await write(until: deadline) { db in
                    var result: T?
                    try db.inTransaction {
                        result = try updates(db)
                        return .commit
                    }
                    return result!
                }
            }
        }
    }

    @_disfavoredOverload
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try pool.writeWithoutTransaction(updates)
    }

    func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await write(until: nil, updates)
    }

    /// `updates` in the writer's turn, leaving the line, or rolled back, at `deadline`.
    private func write<T: Sendable>(until deadline: ContinuousClock.Instant?, _ updates: @Sendable (Database) throws -> T) async throws -> T {
        let (pool, lockWait, turns) = (pool, lockWait, turns)
        guard let deadline else {
            return try await turns.inTurn {
                try await Self.lockedIsUnavailable {
                    try await pool.writeWithoutTransaction { db in try lockWait.during({ try updates(db) }, deadline: nil) }
                }
            }
        }
        // The write and the deadline race; the first to end cancels the other. A write
        // waiting for its turn leaves the line at once; GRDB rolls back one running. The
        // one writing waits for a lock no longer than this deadline (`lockWait`).
        return try await withoutActuallyEscaping(updates) { updates in
            try await withThrowingTaskGroup(of: T.self) { group in
                group.addTask {
                    try await turns.inTurn {
                        try await Self.lockedIsUnavailable {
                            try await pool.writeWithoutTransaction { db in try lockWait.during({ try updates(db) }, deadline: deadline) }
                        }
                    }
                }
                group.addTask {
                    // On the request's loop's clock: a write that wins leaves no timer behind.
                    try await Expiry.sleep(until: deadline, on: EventLoop.current)
                    throw DatabaseUnavailable(reason: "no answer in the request's patience")
                }
                defer { group.cancelAll() }
                do {
                    return try await group.next()!
                } catch is CancellationError where ContinuousClock.now >= deadline {
                    throw DatabaseUnavailable(reason: "no answer in the request's patience")
                }
            }
        }
    }

    /// A write that found the file locked by another process for longer than it could wait:
    /// the database is unavailable for now, not broken.
    private static func lockedIsUnavailable<T>(_ write: () async throws -> T) async throws -> T {
        do {
            return try await write()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw DatabaseUnavailable(reason: "the database file stayed locked by another process")
        }
    }

    @_disfavoredOverload
    func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try pool.barrierWriteWithoutTransaction(updates)
    }

    func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await turns.inTurn { try await pool.barrierWriteWithoutTransaction(updates) }
    }

    func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        pool.asyncBarrierWriteWithoutTransaction(updates)
    }

    func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        pool.asyncWriteWithoutTransaction(updates)
    }

    func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try pool.unsafeReentrantWrite(updates)
    }
}
