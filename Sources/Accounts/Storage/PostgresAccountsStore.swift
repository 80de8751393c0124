import Foundation
import PostgresNIO
import TesseraPostgres

/// Accounts in PostgreSQL. The signed-in sessions live in the database every instance shares,
/// so signing out (or changing the password) through one instance signs the cookie out on all
/// of them at once: each signed-in request asks the database, as Rails' and Phoenix's
/// session-token checks do.
public struct PostgresAccountsStore: AccountsStore {
    let connections: PostgresConnections

    public init(connections: PostgresConnections) {
        self.connections = connections
    }

    public static func registerMigrations(in migrator: inout PostgresMigrator) {
        // `user` is a reserved word in PostgreSQL.
        migrator.register("accounts.v1", [
            "CREATE TABLE shop_user (id bigserial PRIMARY KEY, email text NOT NULL UNIQUE, name text NOT NULL, password_hash text NOT NULL)",
            """
            CREATE TABLE user_session (id text PRIMARY KEY, user_id bigint NOT NULL REFERENCES shop_user ON DELETE CASCADE, \
            started_at double precision NOT NULL)
            """,
            "CREATE INDEX user_session_by_user ON user_session (user_id)",
        ])
        migrator.register("accounts.v2.staff", ["ALTER TABLE shop_user ADD COLUMN is_staff boolean NOT NULL DEFAULT false"])
    }

    public func user(id: Int) async throws -> User? {
        try await connections.read { connection in
            try connection.rows("SELECT id, email, name, password_hash, is_staff FROM shop_user WHERE id = \(id)").first.map(User.init(postgresRow:))
        }
    }

    public func user(email: String) async throws -> User? {
        try await connections.read { connection in
            try connection.rows("SELECT id, email, name, password_hash, is_staff FROM shop_user WHERE email = \(email)").first.map(User.init(postgresRow:))
        }
    }

    public func insert(email: String, name: String, passwordHash: String, isStaff: Bool) async throws -> User? {
        try await connections.write { connection in
            try connection.rows("""
                INSERT INTO shop_user (email, name, password_hash, is_staff) VALUES (\(email), \(name), \(passwordHash), \(isStaff)) \
                ON CONFLICT (email) DO NOTHING RETURNING id, email, name, password_hash, is_staff
                """).first.map(User.init(postgresRow:))
        }
    }

    public func updatePasswordHash(userID: Int, to passwordHash: String) async throws {
        try await connections.write { connection in
            try connection.execute("UPDATE shop_user SET password_hash = \(passwordHash) WHERE id = \(userID)")
        }
    }

    public func startSession(_ sessionID: String, userID: Int, forgettingSessionsStartedBefore cutoff: Date) async throws {
        let now = Date().timeIntervalSince1970
        try await connections.write { connection in
            try connection.execute("DELETE FROM user_session WHERE user_id = \(userID) AND started_at < \(cutoff.timeIntervalSince1970)")
            try connection.execute("""
                INSERT INTO user_session (id, user_id, started_at) VALUES (\(sessionID), \(userID), \(now)) \
                ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, started_at = excluded.started_at
                """)
        }
    }

    /// On the caller's thread (the request's), which waits for the database: one primary-key
    /// lookup for each signed-in request. It waits at most ``sessionCheckPatience`` for a
    /// connection and for the answer, then the request is a 503: the thread serves other
    /// requests too (`/healthz` among them).
    public func isSessionActive(_ sessionID: String, userID: Int, startedAfter notBefore: Date) throws -> Bool {
        try connections.withConnection(patience: Self.sessionCheckPatience) { connection in
            try !connection.rows("""
                SELECT 1 FROM user_session WHERE id = \(sessionID) AND user_id = \(userID) AND started_at > \(notBefore.timeIntervalSince1970)
                """).isEmpty
        }
    }

    public static let sessionCheckPatience: Duration = .seconds(2)

    public func endSession(_ sessionID: String) async throws {
        try await connections.write { connection in
            try connection.execute("DELETE FROM user_session WHERE id = \(sessionID)")
        }
    }

    public func endSessions(userID: Int) async throws {
        try await connections.write { connection in
            try connection.execute("DELETE FROM user_session WHERE user_id = \(userID)")
        }
    }
}

extension User {
    init(postgresRow row: PostgresRow) throws {
        let (id, email, name, passwordHash, isStaff) = try row.decode((Int, String, String, String, Bool).self)
        self.init(id: id, email: email, name: name, passwordHash: passwordHash, isStaff: isStaff)
    }
}
