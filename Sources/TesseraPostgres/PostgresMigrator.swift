import Tessera

/// Versioned schema migrations for PostgreSQL, in the order they were registered, each applied
/// once: GRDB's `DatabaseMigrator` for the SQLite stores, and this for PostgreSQL.
///
/// Several instances may start at once against one database. The migrations run in one
/// transaction that first takes an advisory lock, so the instances take turns: the first
/// applies what is missing, the others wait, then find it applied.
public struct PostgresMigrator: Sendable {
    private var migrations: [(name: String, statements: [String])] = []

    public init() {}

    /// Adds a migration. `statements` run in order; each is one SQL statement (the extended
    /// protocol takes no lists).
    public mutating func register(_ name: String, _ statements: [String]) {
        precondition(!migrations.contains { $0.name == name }, "migration \(name) is registered twice")
        migrations.append((name, statements))
    }

    /// The names of the registered migrations, in order.
    public var names: [String] { migrations.map(\.name) }

    /// Applies the registered migrations that `connections`' database has not seen yet, and
    /// returns their names. Migrations the database has and this list lacks (a newer release's,
    /// during a rolling deploy) are left alone.
    @discardableResult
    public func migrate(_ connections: PostgresConnections) async throws -> [String] {
        let migrations = self.migrations
        return try await connections.write(within: .outsideRequest) { connection in
            try connection.execute("SELECT pg_advisory_xact_lock(\(Self.lockKey))")
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS tessera_migration (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
            let applied = Set(try connection.rows("SELECT name FROM tessera_migration").map { try $0.decode(String.self) })
            let missing = migrations.filter { !applied.contains($0.name) }
            for migration in missing {
                for statement in migration.statements {
                    try connection.execute(PostgresQuery(unsafeSQL: statement))
                }
                try connection.execute("INSERT INTO tessera_migration (name) VALUES (\(migration.name))")
            }
            return missing.map(\.name)
        }
    }

    /// The advisory lock's key: any constant the app's own locks do not use.
    static let lockKey: Int64 = 0x7465_7373_6572_61  // "tessera"
}
