public import Foundation
public import Tessera
public import TesseraPostgres

/// Passkeys in PostgreSQL, shared by every instance: a challenge issued by one instance is taken
/// by whichever instance the answer reaches, once (`DELETE … RETURNING`).
public struct PostgresPasskeyStore: PasskeyStore {
    let connections: PostgresConnections

    public init(connections: PostgresConnections) {
        self.connections = connections
    }

    /// The passkeys' tables; the storefront runs them after the accounts' own.
    public static func registerMigrations(in migrator: inout PostgresMigrator) {
        migrator.register(
            "accounts.v4.passkeys",
            [
                """
                CREATE TABLE passkey (
                    credential_id bytea PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES shop_user ON DELETE CASCADE,
                    public_key bytea NOT NULL,
                    sign_count bigint NOT NULL,
                    created_at timestamptz NOT NULL,
                    last_used_at timestamptz
                )
                """,
                "CREATE INDEX passkey_by_user ON passkey (user_id)",
                """
                CREATE TABLE passkey_challenge (
                    challenge bytea PRIMARY KEY,
                    ceremony text NOT NULL,
                    session_id text NOT NULL,
                    user_id bigint,
                    expires_at timestamptz NOT NULL
                )
                """,
            ])
    }

    public func issue(
        _ challenge: [UInt8], for ceremony: PasskeyCeremony, sessionID: String, userID: Int?, expiresAt: Date, within budget: DatabaseBudget
    ) async throws {
        _ = try await connections.query(
            "DELETE FROM passkey_challenge WHERE expires_at < now() OR (session_id = \(sessionID) AND ceremony = \(ceremony.rawValue))",
            within: budget)
        _ = try await connections.query(
            """
            INSERT INTO passkey_challenge (challenge, ceremony, session_id, user_id, expires_at)
            VALUES (\(PostgresBytes(challenge)), \(ceremony.rawValue), \(sessionID), \(userID), \(expiresAt))
            """, within: budget)
    }

    public func take(
        _ challenge: [UInt8], for ceremony: PasskeyCeremony, sessionID: String, now: Date, within budget: DatabaseBudget
    ) async throws -> Int?? {
        let rows = try await connections.query(
            """
            DELETE FROM passkey_challenge WHERE challenge = \(PostgresBytes(challenge))
            RETURNING user_id, ceremony, session_id, expires_at
            """, within: budget)
        guard let row = rows.first else { return nil }
        let (userID, issuedFor, issuedTo, expiresAt) = try row.decode((Int?, String, String, Date).self)
        guard issuedFor == ceremony.rawValue, issuedTo == sessionID, expiresAt >= now else { return nil }
        return .some(userID)
    }

    public func insert(_ passkey: Passkey, within budget: DatabaseBudget) async throws -> Bool {
        let rows = try await connections.query(
            """
            INSERT INTO passkey (credential_id, user_id, public_key, sign_count, created_at)
            VALUES (\(PostgresBytes(passkey.credentialID)), \(passkey.userID), \(PostgresBytes(passkey.publicKey)), \(Int64(passkey.signCount)), \(passkey.createdAt))
            ON CONFLICT (credential_id) DO NOTHING RETURNING 1
            """, within: budget)
        return !rows.isEmpty
    }

    public func passkey(credentialID: [UInt8], within budget: DatabaseBudget) async throws -> Passkey? {
        try await connections.query(
            """
            SELECT credential_id, user_id, public_key, sign_count, created_at, last_used_at FROM passkey
            WHERE credential_id = \(PostgresBytes(credentialID))
            """, within: budget
        ).first.map(Self.passkey)
    }

    public func passkeys(userID: Int, within budget: DatabaseBudget) async throws -> [Passkey] {
        try await connections.query(
            """
            SELECT credential_id, user_id, public_key, sign_count, created_at, last_used_at FROM passkey
            WHERE user_id = \(userID) ORDER BY created_at
            """, within: budget
        ).map(Self.passkey)
    }

    public func recordSignIn(
        credentialID: [UInt8], from old: UInt32, to new: UInt32, at date: Date, within budget: DatabaseBudget
    ) async throws -> Bool {
        !(try await connections.query(
            """
            UPDATE passkey SET sign_count = \(Int64(new)), last_used_at = \(date)
            WHERE credential_id = \(PostgresBytes(credentialID)) AND sign_count = \(Int64(old)) RETURNING 1
            """, within: budget)).isEmpty
    }

    static func passkey(_ row: PostgresRow) throws -> Passkey {
        let (credentialID, userID, publicKey, signCount, createdAt, lastUsedAt) = try row.decode(
            (PostgresBytes, Int, PostgresBytes, Int64, Date, Date?).self)
        return Passkey(
            credentialID: credentialID.bytes, userID: userID, publicKey: publicKey.bytes,
            signCount: UInt32(truncatingIfNeeded: signCount), createdAt: createdAt, lastUsedAt: lastUsedAt)
    }
}
