public import Foundation
import GRDB
public import Tessera
public import TesseraMail
import TesseraMailSQLite
public import TesseraSQLite

/// Password resets in SQLite, beside the accounts and the mail outbox.
public struct SQLitePasswordResetStore: PasswordResetStore {
    let database: any SQLiteDatabase

    /// Resets in `database`, after ``SQLiteAccountsStore``'s and the outbox's migrations ran.
    public init(database: any SQLiteDatabase) {
        self.database = database
    }

    public func issue(
        digest: String, userID: Int, expiresAt: Date, unlessOneExpiresAfter recent: Date, mail: OutgoingMail, now: Date, within budget: DatabaseBudget
    )
        async throws -> Bool
    {
        // One writer at a time: the check and the insert cannot be split.
        try await database.write(within: budget) { db in
            let fresh = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM passwordReset WHERE userID = ? AND usedAt IS NULL AND expiresAt > ?)",
                arguments: [userID, recent.timeIntervalSince1970])
            guard fresh != true else { return false }
            try db.execute(sql: "DELETE FROM passwordReset WHERE expiresAt < ?", arguments: [now.timeIntervalSince1970 - 86_400])
            try db.execute(
                sql: "INSERT INTO passwordReset (digest, userID, expiresAt) VALUES (?, ?, ?)",
                arguments: [digest, userID, expiresAt.timeIntervalSince1970])
            try SQLiteMailOutbox.writes(in: db, now: now).enqueue(mail)
            return true
        }
    }

    public func usedAt(_ digest: String, within budget: DatabaseBudget) async throws -> Date? {
        try await database.read(within: budget) { db in
            try Double.fetchOne(db, sql: "SELECT usedAt FROM passwordReset WHERE digest = ?", arguments: [digest])
        }.map { Date(timeIntervalSince1970: $0) }
    }

    public func usableReset(_ digest: String, at now: Date, within budget: DatabaseBudget) async throws -> Int? {
        try await database.read(within: budget) { db in
            try Int.fetchOne(
                db, sql: "SELECT userID FROM passwordReset WHERE digest = ? AND usedAt IS NULL AND expiresAt > ?",
                arguments: [digest, now.timeIntervalSince1970])
        }
    }

    public func redeem(
        _ digest: String, at now: Date, passwordHash: String, forgettingSignInsBefore oldestSignIn: Date, within budget: DatabaseBudget
    ) async throws -> Int? {
        return try await database.write(within: budget) { db in
            guard
                let userID = try Int.fetchOne(
                    db, sql: "UPDATE passwordReset SET usedAt = ? WHERE digest = ? AND usedAt IS NULL AND expiresAt > ? RETURNING userID",
                    arguments: [now.timeIntervalSince1970, digest, now.timeIntervalSince1970])
            else { return nil }
            try db.execute(sql: "UPDATE user SET passwordHash = ? WHERE id = ?", arguments: [passwordHash, userID])
            try SQLiteAccountsStore.useUpResets(of: userID, in: db)
            try SQLiteAccountsStore.record(.everySession(userID: userID, signedInBefore: now), forgettingSignInsBefore: oldestSignIn, in: db)
            return userID
        }
    }
}
