import GRDB
import Tessera
import TesseraSQLite

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
/// the writer. Writes still go through the pool's writer queue, one transaction at a time,
/// awaited without blocking a thread.
final class MeasuredDatabase: DatabaseWriter {
    let pool: DatabasePool
    private let reader: InlineReader

    init(_ pool: DatabasePool) {
        self.pool = pool
        self.reader = InlineReader(path: pool.path)
    }

    var configuration: Configuration { pool.configuration }
    var path: String { pool.path }
    func close() throws { try pool.close() }
    func interrupt() { pool.interrupt() }

    // MARK: Reading

    @_disfavoredOverload
    func read<T>(_ value: (Database) throws -> T) throws -> T {
        try DatabaseTime.measure { try reader.read(value) }
    }

    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try DatabaseTime.measure { try reader.read(value) }
    }

    func asyncRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        pool.asyncRead(value)
    }

    @_disfavoredOverload
    func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try DatabaseTime.measure { try pool.unsafeRead(value) }
    }

    func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await DatabaseTime.measure { try await pool.unsafeRead(value) }
    }

    func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
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

    func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        pool.spawnConcurrentRead(value)
    }

    // MARK: Writing (GRDB's `write` and its transactions are built on these)

    @_disfavoredOverload
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try DatabaseTime.measure { try pool.writeWithoutTransaction(updates) }
    }

    func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await DatabaseTime.measure { try await pool.writeWithoutTransaction(updates) }
    }

    @_disfavoredOverload
    func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try DatabaseTime.measure { try pool.barrierWriteWithoutTransaction(updates) }
    }

    func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await DatabaseTime.measure { try await pool.barrierWriteWithoutTransaction(updates) }
    }

    func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, Error>) -> Void) {
        pool.asyncBarrierWriteWithoutTransaction(updates)
    }

    func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        pool.asyncWriteWithoutTransaction(updates)
    }

    func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try DatabaseTime.measure { try pool.unsafeReentrantWrite(updates) }
    }
}
