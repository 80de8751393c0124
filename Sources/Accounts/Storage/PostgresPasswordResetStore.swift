public import Foundation
public import Tessera
public import TesseraMail
import TesseraMailPostgres
public import TesseraPostgres

/// Password resets in PostgreSQL, shared by every instance: a link mailed by one is used on
/// another, and the end of the account's sessions is announced to all of them.
public struct PostgresPasswordResetStore: PasswordResetStore {
    let connections: PostgresConnections

    /// Resets in the database behind `connections`, after the accounts' and the outbox's migrations ran.
    public init(connections: PostgresConnections) {
        self.connections = connections
    }

    public func issue(
        digest: String, userID: Int, expiresAt: Date, unlessOneExpiresAfter recent: Date, mail: OutgoingMail, now: Date, within budget: DatabaseBudget
    )
        async throws -> Bool
    {
        let forgotten = now.timeIntervalSince1970 - 86_400, expires = expiresAt.timeIntervalSince1970, fresh = recent.timeIntervalSince1970
        return try await connections.write(within: budget) { connection in
            // The account's row, locked: two requests for one account check and insert in turn.
            _ = try connection.rows("SELECT id FROM shop_user WHERE id = \(userID) FOR UPDATE")
            let recentOne = try connection.rows(
                "SELECT 1 FROM password_reset WHERE user_id = \(userID) AND used_at IS NULL AND expires_at > \(fresh) LIMIT 1")
            guard recentOne.isEmpty else { return false }
            try connection.execute("DELETE FROM password_reset WHERE expires_at < \(forgotten)")
            try connection.execute("INSERT INTO password_reset (digest, user_id, expires_at) VALUES (\(digest), \(userID), \(expires))")
            try PostgresMailOutbox.writes(in: connection).enqueue(mail)
            return true
        }
    }

    public func usedAt(_ digest: String, within budget: DatabaseBudget) async throws -> Date? {
        try await connections.query("SELECT used_at FROM password_reset WHERE digest = \(digest) AND used_at IS NOT NULL", within: budget).first
            .map { Date(timeIntervalSince1970: try $0.decode(Double.self)) }
    }

    public func usableReset(_ digest: String, at now: Date, within budget: DatabaseBudget) async throws -> Int? {
        try await connections.query(
            "SELECT user_id FROM password_reset WHERE digest = \(digest) AND used_at IS NULL AND expires_at > \(now.timeIntervalSince1970)",
            within: budget
        ).first?.decode(Int.self)
    }

    public func redeem(
        _ digest: String, at now: Date, passwordHash: String, forgettingSignInsBefore oldestSignIn: Date, within budget: DatabaseBudget
    ) async throws -> Int? {
        let moment = now.timeIntervalSince1970
        return try await connections.write(within: budget) { connection in
            guard
                let userID = try connection.rows(
                    """
                    UPDATE password_reset SET used_at = \(moment) WHERE digest = \(digest) AND used_at IS NULL AND expires_at > \(moment) \
                    RETURNING user_id
                    """
                ).first?.decode(Int.self)
            else { return nil }
            try connection.execute("UPDATE shop_user SET password_hash = \(passwordHash) WHERE id = \(userID)")
            try PostgresAccountsStore.useUpResets(of: userID, on: connection)
            try PostgresAccountsStore.record(
                .everySession(userID: userID, signedInBefore: now), forgettingSignInsBefore: oldestSignIn, on: connection)
            return userID
        }
    }
}
