public import Foundation
public import Logging
public import Tessera
public import TesseraPostgres

/// Accounts in PostgreSQL, shared by every instance.
///
/// Session ends are written in the database and announced in the same transaction with
/// `NOTIFY` on ``sessionEndsChannel``: every instance keeps them in memory and hears the
/// others' (``followSessionEnds(started:received:interrupted:)``), so signing out (or
/// changing the password) through one instance signs the cookie out on all of them, and a
/// signed-in request costs no round trip.
public struct PostgresAccountsStore: AccountsStore {
    let connections: PostgresConnections
    let logger: Logger

    /// Accounts in the database behind `connections`; `logger` hears of the session-ends listener.
    public init(connections: PostgresConnections, logger: Logger = Logger(label: "accounts")) {
        self.connections = connections
        self.logger = logger
    }

    /// Where instances announce the session ends they record.
    public static let sessionEndsChannel = "tessera_session_ends"

    /// The accounts' tables, in the order they were added; the storefront runs them at start.
    public static func registerMigrations(in migrator: inout PostgresMigrator) {
        // `user` is a reserved word in PostgreSQL.
        migrator.register(
            "accounts.v1",
            [
                "CREATE TABLE shop_user (id bigserial PRIMARY KEY, email text NOT NULL UNIQUE, name text NOT NULL, password_hash text NOT NULL)",
                """
                CREATE TABLE user_session (id text PRIMARY KEY, user_id bigint NOT NULL REFERENCES shop_user ON DELETE CASCADE, \
                started_at double precision NOT NULL)
                """,
                "CREATE INDEX user_session_by_user ON user_session (user_id)",
            ])
        migrator.register("accounts.v2.staff", ["ALTER TABLE shop_user ADD COLUMN is_staff boolean NOT NULL DEFAULT false"])
        // Sessions are no longer recorded as they start (the signed cookie says when), only as
        // they end before their time.
        migrator.register(
            "accounts.v3.session-ends",
            [
                "DROP TABLE user_session",
                "CREATE TABLE signed_out_session (id text PRIMARY KEY, signed_in_at double precision NOT NULL)",
                "CREATE INDEX signed_out_session_by_age ON signed_out_session (signed_in_at)",
                """
                CREATE TABLE session_cutoff (user_id bigint PRIMARY KEY REFERENCES shop_user ON DELETE CASCADE, \
                ended_before double precision NOT NULL)
                """,
                "CREATE INDEX session_cutoff_by_age ON session_cutoff (ended_before)",
            ])
        // A reset link's token is kept only as its SHA-256 (`digest`).
        migrator.register(
            "accounts.v4.password-resets",
            [
                """
                CREATE TABLE password_reset (digest text PRIMARY KEY, user_id bigint NOT NULL REFERENCES shop_user ON DELETE CASCADE, \
                expires_at double precision NOT NULL, used_at double precision)
                """,
                "CREATE INDEX password_reset_by_user ON password_reset (user_id)",
                "CREATE INDEX password_reset_by_expiry ON password_reset (expires_at)",
            ])
    }

    /// One statement by primary key.
    public func user(id: Int, within budget: DatabaseBudget) async throws -> User? {
        try await connections.query("SELECT id, email, name, password_hash, is_staff FROM shop_user WHERE id = \(id)", within: budget).first.map(
            User.init(postgresRow:))
    }

    /// One statement through the unique e-mail index.
    public func user(email: String, within budget: DatabaseBudget) async throws -> User? {
        try await connections.query("SELECT id, email, name, password_hash, is_staff FROM shop_user WHERE email = \(email)", within: budget).first
            .map(
                User.init(postgresRow:))
    }

    /// `nil` when the e-mail has an account: the unique index decides, across instances too.
    public func insert(email: String, name: String, passwordHash: String, isStaff: Bool, within budget: DatabaseBudget) async throws -> User? {
        try await connections.write(within: budget) { connection in
            try connection.rows(
                """
                INSERT INTO shop_user (email, name, password_hash, is_staff) VALUES (\(email), \(name), \(passwordHash), \(isStaff)) \
                ON CONFLICT (email) DO NOTHING RETURNING id, email, name, password_hash, is_staff
                """
            ).first.map(User.init(postgresRow:))
        }
    }

    /// Replaces the hash, and uses up the account's reset links; the service records the
    /// sessions' end beside it.
    public func updatePasswordHash(userID: Int, to passwordHash: String, within budget: DatabaseBudget) async throws {
        try await connections.write(within: budget) { connection in
            try connection.execute("UPDATE shop_user SET password_hash = \(passwordHash) WHERE id = \(userID)")
            try Self.useUpResets(of: userID, on: connection)
        }
    }

    /// Ends the account's unused reset links, as if they had expired: a new password or a new
    /// address ends them. (Only the link that set a password is marked used.)
    static func useUpResets(of userID: Int, on connection: BlockingConnection) throws {
        let now = Date().timeIntervalSince1970
        try connection.execute("UPDATE password_reset SET expires_at = least(expires_at, \(now)) WHERE user_id = \(userID) AND used_at IS NULL")
    }

    /// `false` when the account's e-mail is no longer `old`, or another account has `email`:
    /// the unique index decides, so two changes to one address at once cannot both win.
    public func updateEmail(userID: Int, from old: String, to email: String, within budget: DatabaseBudget) async throws -> Bool {
        do {
            return try await connections.write(within: budget) { connection in
                guard try connection.execute("UPDATE shop_user SET email = \(email) WHERE id = \(userID) AND email = \(old)") == 1 else {
                    return false
                }
                // A link mailed to the old address no longer resets the account.
                try Self.useUpResets(of: userID, on: connection)
                return true
            }
        } catch let error as PostgresError where error.isUniqueViolation {
            return false
        }
    }

    /// The change and the end commit together, and the end's `NOTIFY` goes out with them.
    public func updateStaff(
        userID: Int, isStaff: Bool, recording end: SessionEnd, forgettingSignInsBefore oldestSignIn: Date, within budget: DatabaseBudget
    ) async throws -> Bool {
        try await connections.write(within: budget) { connection in
            guard try connection.execute("UPDATE shop_user SET is_staff = \(isStaff) WHERE id = \(userID) AND is_staff <> \(isStaff)") == 1 else {
                return false
            }
            try Self.record(end, forgettingSignInsBefore: oldestSignIn, on: connection)
            return true
        }
    }

    public func staffMembers(within budget: DatabaseBudget) async throws -> [User] {
        try await connections.query("SELECT id, email, name, password_hash, is_staff FROM shop_user WHERE is_staff ORDER BY name", within: budget)
            .map(
                User.init(postgresRow:))
    }

    /// Records the end, which every instance then hears by `NOTIFY`, and forgets the ends no live session can need.
    public func record(_ end: SessionEnd, forgettingSignInsBefore oldestSignIn: Date, within budget: DatabaseBudget) async throws {
        try await connections.write(within: budget) { connection in try Self.record(end, forgettingSignInsBefore: oldestSignIn, on: connection) }
    }

    /// ``record(_:forgettingSignInsBefore:)`` inside a transaction that is already open, such as a password reset's.
    static func record(_ end: SessionEnd, forgettingSignInsBefore oldestSignIn: Date, on connection: BlockingConnection) throws {
        let oldest = oldestSignIn.timeIntervalSince1970
        try connection.execute("DELETE FROM signed_out_session WHERE signed_in_at < \(oldest)")
        try connection.execute("DELETE FROM session_cutoff WHERE ended_before < \(oldest)")
        switch end {
        case .signedOut(let sessionID, let signedInAt):
            try connection.execute(
                """
                INSERT INTO signed_out_session (id, signed_in_at) VALUES (\(sessionID), \(signedInAt.timeIntervalSince1970)) \
                ON CONFLICT (id) DO NOTHING
                """)
        case .everySession(let userID, let cutoff):
            try connection.execute(
                """
                INSERT INTO session_cutoff (user_id, ended_before) VALUES (\(userID), \(cutoff.timeIntervalSince1970)) \
                ON CONFLICT (user_id) DO UPDATE SET ended_before = greatest(session_cutoff.ended_before, excluded.ended_before)
                """)
        }
        // Delivered when the transaction commits, never before, and never if it does not.
        try connection.execute("SELECT pg_notify(\(sessionEndsChannel), \(announcement(of: end)))")
    }

    /// The ends that can still matter, read at start and again after the listener reconnects.
    public func sessionEnds(signedInSince oldestSignIn: Date, within budget: DatabaseBudget) async throws -> SessionEnds {
        let oldest = oldestSignIn.timeIntervalSince1970
        return try await connections.read(within: budget) { connection in
            var ends = SessionEnds()
            for row in try connection.rows("SELECT id, signed_in_at FROM signed_out_session WHERE signed_in_at >= \(oldest)") {
                let (id, signedInAt) = try row.decode((String, Double).self)
                ends.signedOut[id] = Date(timeIntervalSince1970: signedInAt)
            }
            for row in try connection.rows("SELECT user_id, ended_before FROM session_cutoff WHERE ended_before >= \(oldest)") {
                let (userID, cutoff) = try row.decode((Int, Double).self)
                ends.endedBefore[userID] = Date(timeIntervalSince1970: cutoff)
            }
            return ends
        }
    }

    /// Asks the table itself, for a check that must not trust the in-memory copy.
    public func hasEnded(_ sessionID: String, userID: Int, signedInAt: Date, within budget: DatabaseBudget) async throws -> Bool {
        try await connections.query(
            """
            SELECT EXISTS (SELECT 1 FROM signed_out_session WHERE id = \(sessionID)) \
            OR EXISTS (SELECT 1 FROM session_cutoff WHERE user_id = \(userID) AND ended_before > \(signedInAt.timeIntervalSince1970))
            """, within: budget
        ).first?.decode(Bool.self) ?? true
    }

    /// Listens for other instances' session ends until cancelled; `started` runs each time listening (re)starts, so the caller can catch up on what it missed.
    public func followSessionEnds(
        started: @escaping @Sendable () async -> Void, received: @escaping @Sendable (SessionEnd) -> Void,
        interrupted: @escaping @Sendable () -> Void
    ) async {
        let logger = self.logger
        await PostgresListener(channel: Self.sessionEndsChannel, connections: connections, logger: logger).run(
            started: started,
            received: { payload in
                guard let end = Self.end(announcedBy: payload) else { return }
                received(end)
                // After it took effect here: an operator (or a test) that reads this line knows
                // this instance refuses the session from now on. Never the session's id.
                switch end {
                case .signedOut: logger.info("session end heard: one session signed out")
                case .everySession(let userID, _): logger.info("session end heard: every session of a user", metadata: ["user": "\(userID)"])
                }
            },
            interrupted: interrupted
        )
    }

    // MARK: The announcement: "signed-out <signed in at> <session id>" or "every-session <signed in before> <user id>"

    static func announcement(of end: SessionEnd) -> String {
        switch end {
        case .signedOut(let sessionID, let signedInAt): "signed-out \(signedInAt.timeIntervalSince1970) \(sessionID)"
        case .everySession(let userID, let cutoff): "every-session \(cutoff.timeIntervalSince1970) \(userID)"
        }
    }

    static func end(announcedBy payload: String) -> SessionEnd? {
        let fields = payload.split(separator: " ", maxSplits: 2)
        guard fields.count == 3, let seconds = Double(fields[1]) else { return nil }
        let moment = Date(timeIntervalSince1970: seconds)
        switch fields[0] {
        case "signed-out": return .signedOut(sessionID: String(fields[2]), signedInAt: moment)
        case "every-session": return Int(fields[2]).map { .everySession(userID: $0, signedInBefore: moment) }
        default: return nil
        }
    }
}

extension User {
    init(postgresRow row: PostgresRow) throws {
        let (id, email, name, passwordHash, isStaff) = try row.decode((Int, String, String, String, Bool).self)
        self.init(id: id, email: email, name: name, passwordHash: passwordHash, isStaff: isStaff)
    }
}
