/// A statement a hot path runs again and again: prepared once on each connection that runs it,
/// then only bound and executed, so the server parses and plans it once per connection.
public protocol PostgresPreparedStatement: Sendable {
    /// What each row becomes.
    associatedtype Row
    /// The statement, with `$1`, `$2`, … for ``makeBindings()``'s values.
    static var sql: String { get }
    /// The values of this run's placeholders.
    func makeBindings() throws -> PostgresBindings
    /// One row of the answer.
    func decodeRow(_ row: PostgresRow) throws -> Row
}
