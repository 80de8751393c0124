public import Foundation
public import GRDB
public import Tessera
public import TesseraSQLite

/// Passkeys in SQLite, through GRDB.
public struct SQLitePasskeyStore: PasskeyStore {
    let database: any SQLiteDatabase

    public init(database: any SQLiteDatabase) {
        self.database = database
    }

    /// The passkeys' tables; the storefront runs them after the accounts' own.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("accounts.v5.passkeys") { db in
            try db.execute(
                sql: """
                    CREATE TABLE passkey (
                        credentialID BLOB PRIMARY KEY,
                        userID INTEGER NOT NULL REFERENCES user ON DELETE CASCADE,
                        publicKey BLOB NOT NULL,
                        signCount INTEGER NOT NULL,
                        createdAt REAL NOT NULL,
                        lastUsedAt REAL
                    );
                    CREATE INDEX passkey_by_user ON passkey (userID);
                    CREATE TABLE passkeyChallenge (
                        challenge BLOB PRIMARY KEY,
                        ceremony TEXT NOT NULL,
                        sessionID TEXT NOT NULL,
                        userID INTEGER,
                        expiresAt REAL NOT NULL
                    );
                    """)
        }
    }

    public func issue(
        _ challenge: [UInt8], for ceremony: PasskeyCeremony, sessionID: String, userID: Int?, expiresAt: Date, within budget: DatabaseBudget
    ) async throws {
        try await database.write(within: budget) { db in
            try db.execute(
                sql: "DELETE FROM passkeyChallenge WHERE expiresAt < ? OR (sessionID = ? AND ceremony = ?)",
                arguments: [Date().timeIntervalSince1970, sessionID, ceremony.rawValue])
            try db.execute(
                sql: "INSERT INTO passkeyChallenge (challenge, ceremony, sessionID, userID, expiresAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [Data(challenge), ceremony.rawValue, sessionID, userID, expiresAt.timeIntervalSince1970])
        }
    }

    public func take(
        _ challenge: [UInt8], for ceremony: PasskeyCeremony, sessionID: String, now: Date, within budget: DatabaseBudget
    ) async throws -> Int?? {
        try await database.write(within: budget) { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT userID, ceremony, sessionID, expiresAt FROM passkeyChallenge WHERE challenge = ?",
                arguments: [Data(challenge)])
            try db.execute(sql: "DELETE FROM passkeyChallenge WHERE challenge = ?", arguments: [Data(challenge)])
            guard let row, row["ceremony"] == ceremony.rawValue, row["sessionID"] == sessionID,
                (row["expiresAt"] as Double) >= now.timeIntervalSince1970
            else { return nil }
            return .some(row["userID"] as Int?)
        }
    }

    public func insert(_ passkey: Passkey, within budget: DatabaseBudget) async throws -> Bool {
        try await database.write(within: budget) { db in
            try db.execute(
                sql: """
                    INSERT INTO passkey (credentialID, userID, publicKey, signCount, createdAt) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (credentialID) DO NOTHING
                    """,
                arguments: [
                    Data(passkey.credentialID), passkey.userID, Data(passkey.publicKey), Int64(passkey.signCount),
                    passkey.createdAt.timeIntervalSince1970,
                ])
            return db.changesCount == 1
        }
    }

    public func passkey(credentialID: [UInt8], within budget: DatabaseBudget) async throws -> Passkey? {
        try await database.read(within: budget) { db in
            try Row.fetchOne(db, sql: "SELECT * FROM passkey WHERE credentialID = ?", arguments: [Data(credentialID)]).map(Self.passkey)
        }
    }

    public func passkeys(userID: Int, within budget: DatabaseBudget) async throws -> [Passkey] {
        try await database.read(within: budget) { db in
            try Row.fetchAll(db, sql: "SELECT * FROM passkey WHERE userID = ? ORDER BY createdAt", arguments: [userID]).map(Self.passkey)
        }
    }

    public func recordSignIn(
        credentialID: [UInt8], from old: UInt32, to new: UInt32, at date: Date, within budget: DatabaseBudget
    ) async throws -> Bool {
        try await database.write(within: budget) { db in
            try db.execute(
                sql: "UPDATE passkey SET signCount = ?, lastUsedAt = ? WHERE credentialID = ? AND signCount = ?",
                arguments: [Int64(new), date.timeIntervalSince1970, Data(credentialID), Int64(old)])
            return db.changesCount == 1
        }
    }

    static func passkey(_ row: Row) -> Passkey {
        Passkey(
            credentialID: Array(row["credentialID"] as Data), userID: row["userID"], publicKey: Array(row["publicKey"] as Data),
            signCount: UInt32(truncatingIfNeeded: row["signCount"] as Int64), createdAt: Date(timeIntervalSince1970: row["createdAt"]),
            lastUsedAt: (row["lastUsedAt"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}
