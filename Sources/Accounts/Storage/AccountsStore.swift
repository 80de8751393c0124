import Foundation
import GRDB

/// Where accounts live; services see only this protocol.
///
/// It also keeps the *signed-in sessions*: the session cookie is signed but kept by the browser,
/// so only a record on the server can make a copied cookie worthless after sign-out or a
/// password change.
public protocol AccountsStore: Sendable {
    func user(id: Int) async throws -> User?
    func user(email: String) async throws -> User?
    /// Inserts a user; `nil` when the e-mail is taken.
    func insert(email: String, name: String, passwordHash: String, isStaff: Bool) async throws -> User?
    /// Replaces a user's password hash.
    func updatePasswordHash(userID: Int, to passwordHash: String) async throws


    /// Records that session `sessionID` is signed in as `userID`, from now, and forgets the
    /// user's sessions started before `cutoff`, which can no longer be active.
    func startSession(_ sessionID: String, userID: Int, forgettingSessionsStartedBefore cutoff: Date) async throws
    /// Whether `sessionID` is signed in as `userID`, and started after `notBefore`.
    ///
    /// Synchronous, because ``ShopperMiddleware`` asks it for every signed-in request before
    /// anything else runs, and middleware steps are synchronous. A store across the network waits
    /// on the request's thread, for a bounded time (``PostgresAccountsStore/sessionCheckPatience``).
    func isSessionActive(_ sessionID: String, userID: Int, startedAfter notBefore: Date) throws -> Bool
    /// Ends one session: sign-out.
    func endSession(_ sessionID: String) async throws
    /// Ends every session of `userID`: a password change.
    func endSessions(userID: Int) async throws
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
        migrator.registerMigration("accounts.v2.sessions") { db in
            try db.create(table: "userSession") { table in
                table.primaryKey("id", .text)
                table.column("userID", .integer).notNull().indexed().references("user", onDelete: .cascade)
                table.column("startedAt", .double).notNull()
            }
        }
        migrator.registerMigration("accounts.v3.staff") { db in
            try db.alter(table: "user") { table in
                table.add(column: "isStaff", .boolean).notNull().defaults(to: false)
            }
        }
    }

    public func user(id: Int) async throws -> User? {
        try await database.read { db in try User.fetchOne(db.cachedStatement(sql: "SELECT * FROM user WHERE id = ?"), arguments: [id]) }
    }

    public func user(email: String) async throws -> User? {
        try await database.read { db in try User.filter(Column("email") == email).fetchOne(db) }
    }

    public func insert(email: String, name: String, passwordHash: String, isStaff: Bool) async throws -> User? {
        try await database.write { db in
            guard try User.filter(Column("email") == email).fetchCount(db) == 0 else { return nil }
            try db.execute(sql: "INSERT INTO user (email, name, passwordHash, isStaff) VALUES (?, ?, ?, ?)",
                           arguments: [email, name, passwordHash, isStaff])
            return User(id: Int(db.lastInsertedRowID), email: email, name: name, passwordHash: passwordHash, isStaff: isStaff)
        }
    }

    public func updatePasswordHash(userID: Int, to passwordHash: String) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE user SET passwordHash = ? WHERE id = ?", arguments: [passwordHash, userID])
        }
    }

    public func startSession(_ sessionID: String, userID: Int, forgettingSessionsStartedBefore cutoff: Date) async throws {
        let now = Date().timeIntervalSince1970
        try await database.write { db in
            try db.execute(sql: "DELETE FROM userSession WHERE userID = ? AND startedAt < ?", arguments: [userID, cutoff.timeIntervalSince1970])
            try db.execute(sql: "INSERT OR REPLACE INTO userSession (id, userID, startedAt) VALUES (?, ?, ?)", arguments: [sessionID, userID, now])
        }
    }

    public func isSessionActive(_ sessionID: String, userID: Int, startedAfter notBefore: Date) throws -> Bool {
        try database.read { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM userSession WHERE id = ? AND userID = ? AND startedAt > ?)"),
                              arguments: [sessionID, userID, notBefore.timeIntervalSince1970]) ?? false
        }
    }

    public func endSession(_ sessionID: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM userSession WHERE id = ?", arguments: [sessionID])
        }
    }

    public func endSessions(userID: Int) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM userSession WHERE userID = ?", arguments: [userID])
        }
    }
}

extension User: FetchableRecord, TableRecord {
    public static let databaseTableName = "user"
}

/// The demo accounts the first run creates, three shoppers and one of staff. Their hashes were computed once (PBKDF2-SHA256,
/// 600,000 rounds, random salts) so that starting the shop costs no hashing. The README lists
/// the passwords.
public enum AccountsSeed {
    public static let users: [(email: String, name: String, passwordHash: String)] = [
        ("ada@example.com", "Ada Lovelace", "pbkdf2-sha256$600000$5f-0B2vETjEbkZw9v2k3Hw$f2PEC7-XZP6xqd1Wfw69ev1vw23cyBpi--g6EU4LVuw"),
        ("grace@example.com", "Grace Hopper", "pbkdf2-sha256$600000$z99BxRVaMrdmL2bXvqifWA$MtBtzRGgdl99fpPCb0XSf2zWBkVJC0PGYJps1txQW8Y"),
        ("alan@example.com", "Alan Turing", "pbkdf2-sha256$600000$06PZR23PhM9jm5i3MQm5XQ$Yi167HPtaFdPdsDxJlMEVRNtqH4al4IRs-Y7cY6NAZs"),
        ("sam@example.com", "Sam Staff", "pbkdf2-sha256$600000$PmIchOFyDqR9mn5OHGHa0w$N14-NnIYIbUuZ7UQeQZLEqs9evTd8wB9BfeD5MF5AFU"),
    ]

    /// The demo staff account, for the back office.
    public static let staffEmail = "sam@example.com"

    /// Adds the demo shoppers that are missing. The staff account, whose password the README
    /// publishes, is added only with them to a new database (no Ada yet): never to a shop that
    /// already runs, where it would open the back office to anyone.
    public static func seedIfEmpty(_ store: some AccountsStore) async throws {
        let isNew = try await store.user(email: users[0].email) == nil
        for user in users where try await store.user(email: user.email) == nil {
            let isStaff = user.email == staffEmail
            guard !isStaff || isNew else { continue }
            _ = try await store.insert(email: user.email, name: user.name, passwordHash: user.passwordHash, isStaff: isStaff)
        }
    }
}
