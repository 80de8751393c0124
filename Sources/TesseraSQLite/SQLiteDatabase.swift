public import GRDB
public import Tessera

/// The SQLite database as stores use it: every read and write within a request's
/// `DatabaseBudget`, so that it waits no longer than the request's patience and its time
/// counts as the request's.
///
/// GRDB's `DatabaseWriter` has no place for a budget, and an adapter that found one in ambient
/// state would lose it in a task the handler detaches; so stores hold this, and a store call
/// without a budget does not compile. GRDB's queues and pools conform as they are: they count
/// the waiting against the budget but cannot leave a write early; an app's adapter (the
/// storefront's reads on the caller's thread and its writes that leave at the deadline)
/// implements the three calls itself.
public protocol SQLiteDatabase: Sendable {
    /// GRDB's writer underneath, for migrations and work that no request waits for.
    var writer: any DatabaseWriter { get }

    /// Runs `value` in a read-only transaction that sees one snapshot of the database.
    func read<T: Sendable>(within budget: DatabaseBudget, _ value: @Sendable (Database) throws -> T) async throws -> T

    /// Runs `value` outside a transaction: for a read of one statement, which needs none.
    func unsafeRead<T: Sendable>(within budget: DatabaseBudget, _ value: @Sendable (Database) throws -> T) async throws -> T

    /// Runs `updates` in one transaction: committed when it returns, rolled back when it throws.
    func write<T: Sendable>(within budget: DatabaseBudget, _ updates: @Sendable (Database) throws -> T) async throws -> T
}

extension SQLiteDatabase where Self: DatabaseWriter {
    public var writer: any DatabaseWriter { self }

    public func read<T: Sendable>(within budget: DatabaseBudget, _ value: @Sendable (Database) throws -> T) async throws -> T {
        try await budget.call { _ in try await read(value) }
    }

    public func unsafeRead<T: Sendable>(within budget: DatabaseBudget, _ value: @Sendable (Database) throws -> T) async throws -> T {
        try await budget.call { _ in try await unsafeRead(value) }
    }

    public func write<T: Sendable>(within budget: DatabaseBudget, _ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await budget.call { _ in try await write(updates) }
    }
}

extension DatabaseQueue: SQLiteDatabase {}
extension DatabasePool: SQLiteDatabase {}
