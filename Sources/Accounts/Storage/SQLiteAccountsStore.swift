public import Foundation
public import GRDB
public import Tessera
public import TesseraSQLite

/// Accounts in SQLite, through GRDB.
public struct SQLiteAccountsStore: AccountsStore {
    let database: any SQLiteDatabase

    /// Accounts in `database`, after their migrations ran.
    public init(database: any SQLiteDatabase) {
        self.database = database
    }

    /// The accounts' tables, in the order they were added; the storefront runs them at start.
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
        // Sessions are no longer recorded as they start (the signed cookie says when), only as
        // they end before their time.
        migrator.registerMigration("accounts.v4.session-ends") { db in
            try db.drop(table: "userSession")
            try db.create(table: "signedOutSession") { table in
                table.primaryKey("id", .text)
                table.column("signedInAt", .double).notNull().indexed()
            }
            try db.create(table: "sessionCutoff") { table in
                table.primaryKey("userID", .integer).references("user", onDelete: .cascade)
                table.column("endedBefore", .double).notNull().indexed()
            }
        }
        // A reset link's token is kept only as its SHA-256 (`digest`).
        migrator.registerMigration("accounts.v5.password-resets") { db in
            try db.create(table: "passwordReset") { table in
                table.primaryKey("digest", .text)
                table.column("userID", .integer).notNull().indexed().references("user", onDelete: .cascade)
                table.column("expiresAt", .double).notNull().indexed()
                table.column("usedAt", .double)
            }
        }
    }

    /// One read by primary key.
    public func user(id: Int, within budget: DatabaseBudget) async throws -> User? {
        try await database.read(within: budget) { db in try User.fetchOne(db.cachedStatement(sql: "SELECT * FROM user WHERE id = ?"), arguments: [id])
        }
    }

    /// One read through the unique e-mail index.
    public func user(email: String, within budget: DatabaseBudget) async throws -> User? {
        try await database.read(within: budget) { db in try User.filter(Column("email") == email).fetchOne(db) }
    }

    /// `nil` when the e-mail has an account: the unique index decides, so two registrations at once cannot both win.
    public func insert(email: String, name: String, passwordHash: String, isStaff: Bool, within budget: DatabaseBudget) async throws -> User? {
        try await database.write(within: budget) { db in
            guard try User.filter(Column("email") == email).fetchCount(db) == 0 else { return nil }
            try db.execute(
                sql: "INSERT INTO user (email, name, passwordHash, isStaff) VALUES (?, ?, ?, ?)",
                arguments: [email, name, passwordHash, isStaff])
            return User(id: Int(db.lastInsertedRowID), email: email, name: name, passwordHash: passwordHash, isStaff: isStaff)
        }
    }

    /// Replaces the hash, and uses up the account's reset links; the service records the
    /// sessions' end beside it.
    public func updatePasswordHash(userID: Int, to passwordHash: String, within budget: DatabaseBudget) async throws {
        try await database.write(within: budget) { db in
            try db.execute(sql: "UPDATE user SET passwordHash = ? WHERE id = ?", arguments: [passwordHash, userID])
            try Self.useUpResets(of: userID, in: db)
        }
    }

    /// Ends the account's unused reset links, as if they had expired: a new password or a new
    /// address ends them. (Only the link that set a password is marked used.)
    static func useUpResets(of userID: Int, in db: Database) throws {
        try db.execute(
            sql: "UPDATE passwordReset SET expiresAt = min(expiresAt, ?) WHERE userID = ? AND usedAt IS NULL",
            arguments: [Date().timeIntervalSince1970, userID])
    }

    /// `false` when the account's e-mail is no longer `old`, or another account has `email`
    /// (one writer at a time: the check and the change cannot be split).
    public func updateEmail(userID: Int, from old: String, to email: String, within budget: DatabaseBudget) async throws -> Bool {
        try await database.write(within: budget) { db in
            guard try User.filter(Column("email") == email && Column("id") != userID).fetchCount(db) == 0 else { return false }
            try db.execute(sql: "UPDATE user SET email = ? WHERE id = ? AND email = ?", arguments: [email, userID, old])
            guard db.changesCount == 1 else { return false }
            // A link mailed to the old address no longer resets the account.
            try Self.useUpResets(of: userID, in: db)
            return true
        }
    }

    public func updateStaff(
        userID: Int, isStaff: Bool, recording end: SessionEnd, forgettingSignInsBefore oldestSignIn: Date, within budget: DatabaseBudget
    ) async throws -> Bool {
        try await database.write(within: budget) { db in
            try db.execute(sql: "UPDATE user SET isStaff = ? WHERE id = ? AND isStaff != ?", arguments: [isStaff, userID, isStaff])
            guard db.changesCount == 1 else { return false }
            try Self.record(end, forgettingSignInsBefore: oldestSignIn, in: db)
            return true
        }
    }

    public func staffMembers(within budget: DatabaseBudget) async throws -> [User] {
        try await database.read(within: budget) { db in try User.filter(Column("isStaff") == true).order(Column("name")).fetchAll(db) }
    }

    /// Records the end and forgets those older than any session still alive, in one write.
    public func record(_ end: SessionEnd, forgettingSignInsBefore oldestSignIn: Date, within budget: DatabaseBudget) async throws {
        try await database.write(within: budget) { db in try Self.record(end, forgettingSignInsBefore: oldestSignIn, in: db) }
    }

    /// ``record(_:forgettingSignInsBefore:)`` inside a transaction that is already open, such as a password reset's.
    static func record(_ end: SessionEnd, forgettingSignInsBefore oldestSignIn: Date, in db: Database) throws {
        let oldest = oldestSignIn.timeIntervalSince1970
        try db.execute(sql: "DELETE FROM signedOutSession WHERE signedInAt < ?", arguments: [oldest])
        try db.execute(sql: "DELETE FROM sessionCutoff WHERE endedBefore < ?", arguments: [oldest])
        switch end {
        case .signedOut(let sessionID, let signedInAt):
            try db.execute(
                sql: "INSERT OR REPLACE INTO signedOutSession (id, signedInAt) VALUES (?, ?)",
                arguments: [sessionID, signedInAt.timeIntervalSince1970])
        case .everySession(let userID, let cutoff):
            try db.execute(
                sql: """
                    INSERT INTO sessionCutoff (userID, endedBefore) VALUES (?, ?)
                    ON CONFLICT (userID) DO UPDATE SET endedBefore = max(endedBefore, excluded.endedBefore)
                    """, arguments: [userID, cutoff.timeIntervalSince1970])
        }
    }

    /// The ends that can still matter, for the in-memory copy at start.
    public func sessionEnds(signedInSince oldestSignIn: Date, within budget: DatabaseBudget) async throws -> SessionEnds {
        try await database.read(within: budget) { db in
            let oldest = oldestSignIn.timeIntervalSince1970
            var ends = SessionEnds()
            for row in try Row.fetchAll(db, sql: "SELECT id, signedInAt FROM signedOutSession WHERE signedInAt >= ?", arguments: [oldest]) {
                ends.signedOut[row[0]] = Date(timeIntervalSince1970: row[1])
            }
            for row in try Row.fetchAll(db, sql: "SELECT userID, endedBefore FROM sessionCutoff WHERE endedBefore >= ?", arguments: [oldest]) {
                ends.endedBefore[row[0]] = Date(timeIntervalSince1970: row[1])
            }
            return ends
        }
    }

    /// Asks the table itself, for a check that must not trust the in-memory copy.
    public func hasEnded(_ sessionID: String, userID: Int, signedInAt: Date, within budget: DatabaseBudget) async throws -> Bool {
        try await database.read(within: budget) { db in
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM signedOutSession WHERE id = ?) OR EXISTS (SELECT 1 FROM sessionCutoff WHERE userID = ? AND endedBefore > ?)
                        """), arguments: [sessionID, userID, signedInAt.timeIntervalSince1970]) ?? false
        }
    }

    /// Only this process writes the file: what it ends, it records in its own copy as it goes.
    public func followSessionEnds(
        started: @escaping @Sendable () async -> Void, received: @escaping @Sendable (SessionEnd) -> Void,
        interrupted: @escaping @Sendable () -> Void
    ) async {
        await started()
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
    }
}

extension User: FetchableRecord, TableRecord {
    /// The table GRDB's record methods use.
    public static let databaseTableName = "user"
}
