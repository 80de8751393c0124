import GRDB

/// Where accounts live; services see only this protocol.
public protocol AccountsStore: Sendable {
    func user(id: Int) async throws -> User?
    func user(email: String) async throws -> User?
    /// Inserts a user; `nil` when the e-mail is taken.
    func insert(email: String, name: String, passwordHash: String) async throws -> User?
}

/// Accounts in SQLite, through GRDB.
public struct SQLiteAccountsStore: AccountsStore {
    let database: any DatabaseWriter

    public init(database: any DatabaseWriter) {
        self.database = database
    }

    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("accounts.v1") { db in
            try db.create(table: "user") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("email", .text).notNull().unique(onConflict: .abort)
                table.column("name", .text).notNull()
                table.column("passwordHash", .text).notNull()
            }
        }
    }

    public func user(id: Int) async throws -> User? {
        try await database.read { db in try User.fetchOne(db, key: id) }
    }

    public func user(email: String) async throws -> User? {
        try await database.read { db in try User.filter(Column("email") == email).fetchOne(db) }
    }

    public func insert(email: String, name: String, passwordHash: String) async throws -> User? {
        try await database.write { db in
            guard try User.filter(Column("email") == email).fetchCount(db) == 0 else { return nil }
            try db.execute(sql: "INSERT INTO user (email, name, passwordHash) VALUES (?, ?, ?)", arguments: [email, name, passwordHash])
            return User(id: Int(db.lastInsertedRowID), email: email, name: name, passwordHash: passwordHash)
        }
    }
}

extension User: FetchableRecord, TableRecord {
    public static let databaseTableName = "user"
}

/// The three demo accounts the first run creates. Their hashes were computed once (PBKDF2-SHA256,
/// 600,000 rounds, random salts) so that starting the shop costs no hashing. The README lists
/// the passwords.
public enum AccountsSeed {
    public static let users: [(email: String, name: String, passwordHash: String)] = [
        ("ada@example.com", "Ada Lovelace", "pbkdf2-sha256$600000$5f-0B2vETjEbkZw9v2k3Hw$f2PEC7-XZP6xqd1Wfw69ev1vw23cyBpi--g6EU4LVuw"),
        ("grace@example.com", "Grace Hopper", "pbkdf2-sha256$600000$z99BxRVaMrdmL2bXvqifWA$MtBtzRGgdl99fpPCb0XSf2zWBkVJC0PGYJps1txQW8Y"),
        ("alan@example.com", "Alan Turing", "pbkdf2-sha256$600000$06PZR23PhM9jm5i3MQm5XQ$Yi167HPtaFdPdsDxJlMEVRNtqH4al4IRs-Y7cY6NAZs"),
    ]

    public static func seedIfEmpty(_ store: some AccountsStore) async throws {
        for user in users where try await store.user(email: user.email) == nil {
            _ = try await store.insert(email: user.email, name: user.name, passwordHash: user.passwordHash)
        }
    }
}
