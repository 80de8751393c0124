import GRDB
import Tessera
import TesseraHTTP
import TesseraSQLite
import Tracing

/// The storefront's database as the feature modules see it: the GRDB pool, with the time of
/// every call added to the current request's ``DatabaseTime``, for the
/// `http_request_database_seconds` metric. The modules stay unaware; they get an
/// `any DatabaseWriter` as before.
///
/// Every requirement of GRDB's reader and writer protocols forwards to the pool; the calls a
/// request waits for are measured, and the callback-based ones, which no request awaits, are not.
///
/// Reads, awaited or not, run on the caller's thread through an ``InlineReader``: for reads
/// that take microseconds, GRDB's hop to a reader's queue and back (and the connection's
/// suspend and resume it forces on libmicrohttpd) cost more than the reads. They never wait for
/// the writer, nor for another process's write lock (WAL). Writes take turns (``WriterTurns``),
/// then go through the pool's writer queue, one transaction at a time, awaited without blocking
/// a thread, and a request waits for one until its ``DatabasePatience`` at most: past it
/// (another process holding the write lock, a line of writes ahead of it), the write leaves the
/// line or is rolled back, and the request is a ``DatabaseUnavailable``, a 503. A write that
/// finds the file locked by another process waits for it until its request's deadline
/// (``FileLockWait``), or five seconds outside a request (the mail worker's), and then is
/// unavailable too.
final class MeasuredDatabase: DatabaseWriter {
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

    @_disfavoredOverload
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        try Self.traced("db.read") { try DatabaseTime.measure { try reader.read(value) } }
    }

    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try Self.traced("db.read") { try DatabaseTime.measure { try reader.read(value) } }
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
        try DatabaseTime.measure { try reader.unsafeRead(value) }
    }

    func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try DatabaseTime.measure { try reader.unsafeRead(value) }
    }

    func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        pool.asyncUnsafeRead(value)
    }

    func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try DatabaseTime.measure { try pool.unsafeReentrantRead(value) }
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

    @_disfavoredOverload
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try DatabaseTime.measure { try pool.writeWithoutTransaction(updates) }
    }

    func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await RequestTracing.withChildSpan("db.write", ofKind: .client) { span in
            span?.attributes["db.system.name"] = "sqlite"
            return try await measuredWrite(updates)
        }
    }

    private func measuredWrite<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await DatabaseTime.measure {
            try await DatabasePatience.call { [pool, lockWait, turns] deadline in
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
        try DatabaseTime.measure { try pool.barrierWriteWithoutTransaction(updates) }
    }

    func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await DatabaseTime.measure { try await turns.inTurn { try await pool.barrierWriteWithoutTransaction(updates) } }
    }

    func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        pool.asyncBarrierWriteWithoutTransaction(updates)
    }

    func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        pool.asyncWriteWithoutTransaction(updates)
    }

    func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try DatabaseTime.measure { try pool.unsafeReentrantWrite(updates) }
    }
}
