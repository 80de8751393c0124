import Foundation
public import Logging
import Tessera
public import TesseraMail
public import TesseraPostgres

/// The framework's mail outbox (`MailOutbox`) in PostgreSQL, shared by every instance
/// on the database: each worker claims a mail with `FOR UPDATE SKIP LOCKED` in one statement,
/// so two instances never take the same mail, and neither waits for the other. Times are the
/// database's (`now()`), so instances whose clocks differ agree on what is due. A dead letter is
/// a row with `dead_at` set; a discarded one keeps its row (and so its `Message-ID`, never sent
/// again) with `discarded_at` set. `attempts` counts every claim and is the claim's number;
/// `resent_after` is its value when staff last sent the mail again.
///
/// Queuing a mail (or sending a dead letter again) also sends `NOTIFY` on ``arrivalsChannel``,
/// which PostgreSQL delivers when the transaction commits: every instance's worker wakes, and
/// none polls.
public struct PostgresMailOutbox: MailOutbox, DeadLetterOffice {
    let connections: PostgresConnections
    let logger: Logger

    /// The channel that announces queued mail.
    public static let arrivalsChannel = "tessera_mail_outbox"

    /// The outbox on `connections`' database, after ``registerMigrations(in:)``'s migration ran.
    public init(connections: PostgresConnections, logger: Logger = Logger(label: "tessera.mail.outbox")) {
        self.connections = connections
        self.logger = logger
    }

    /// The outbox's table, `tessera_mail_outbox`: register it with the app's own migrations.
    public static func registerMigrations(in migrator: inout PostgresMigrator) {
        migrator.register(
            "tessera.v1.mail-outbox",
            [
                """
                CREATE TABLE tessera_mail_outbox (
                    id bigserial PRIMARY KEY,
                    message_id text NOT NULL UNIQUE,
                    sender text NOT NULL,
                    recipients text[] NOT NULL,
                    data text NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    due_at timestamptz NOT NULL DEFAULT now(),
                    attempts integer NOT NULL DEFAULT 0,
                    delivered_at timestamptz,
                    last_error text
                )
                """,
                "CREATE INDEX tessera_mail_outbox_due ON tessera_mail_outbox (due_at) WHERE delivered_at IS NULL",
            ])
        migrator.register(
            "tessera.v2.mail-dead-letters",
            [
                """
                ALTER TABLE tessera_mail_outbox ADD COLUMN reference text, ADD COLUMN dead_at timestamptz, ADD COLUMN discarded_at timestamptz,
                    ADD COLUMN resent_after integer NOT NULL DEFAULT 0
                """,
                "DROP INDEX tessera_mail_outbox_due",
                "CREATE INDEX tessera_mail_outbox_due ON tessera_mail_outbox (due_at) WHERE delivered_at IS NULL AND dead_at IS NULL",
                "CREATE INDEX tessera_mail_outbox_dead ON tessera_mail_outbox (dead_at) WHERE dead_at IS NOT NULL AND discarded_at IS NULL",
            ])
    }

    /// The outbox on the connection of a transaction that is already open, such as an order's.
    public static func writes(in connection: BlockingConnection) -> some MailOutboxWrites {
        Writes(connection: connection)
    }

    struct Writes: MailOutboxWrites {
        let connection: BlockingConnection

        func enqueue(_ mail: OutgoingMail) throws {
            try connection.execute(
                """
                INSERT INTO tessera_mail_outbox (message_id, sender, recipients, data, reference)
                VALUES (\(mail.messageID), \(mail.sender), \(mail.recipients), \(mail.data), \(mail.reference)) ON CONFLICT (message_id) DO NOTHING
                """)
            try connection.execute("SELECT pg_notify(\(PostgresMailOutbox.arrivalsChannel), '')")
        }

        func bury(_ letter: UnsendableMail) throws {
            try connection.execute(
                """
                INSERT INTO tessera_mail_outbox (message_id, sender, recipients, data, reference, dead_at, last_error)
                VALUES (\(letter.messageID), '', \([letter.recipient]), '', \(letter.reference), now(), \(String(letter.reason.prefix(1000))))
                ON CONFLICT (message_id) DO NOTHING
                """)
        }
    }

    public func claim(lease: Duration) async throws -> ClaimedMail? {
        let leaseSeconds = lease.timeInterval
        let rows = try await connections.query(
            """
            UPDATE tessera_mail_outbox SET attempts = attempts + 1, due_at = now() + \(leaseSeconds) * interval '1 second'
            WHERE id = (
                SELECT id FROM tessera_mail_outbox WHERE delivered_at IS NULL AND dead_at IS NULL AND due_at <= now()
                ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
            )
            RETURNING id, attempts, resent_after, message_id, sender, recipients, data, reference
            """, within: .outsideRequest)
        guard let row = rows.first else { return nil }
        let (id, claim, resentAfter, messageID, sender, recipients, data, reference) = try row.decode(
            (Int64, Int, Int, String, String, [String], String, String?).self)
        return ClaimedMail(
            id: id, attempts: claim - resentAfter, claim: claim,
            mail: OutgoingMail(
                messageID: messageID, sender: sender, recipients: recipients, data: data,
                reference: reference))
    }

    public func delivered(_ claim: ClaimedMail) async throws {
        // A secret (a reset link) is not kept once it is on its way.
        let forgets = claim.mail.isSecret
        _ = try await connections.query(
            """
            UPDATE tessera_mail_outbox SET delivered_at = now(), last_error = NULL, data = CASE WHEN \(forgets) THEN '' ELSE data END
            WHERE id = \(claim.id) AND delivered_at IS NULL
            """, within: .outsideRequest)
    }

    public func retry(_ claim: ClaimedMail, after delay: Duration, error: String) async throws {
        let delaySeconds = delay.timeInterval
        _ = try await connections.query(
            """
            UPDATE tessera_mail_outbox SET due_at = now() + \(delaySeconds) * interval '1 second', last_error = \(String(error.prefix(1000)))
            WHERE id = \(claim.id) AND attempts = \(claim.claim) AND delivered_at IS NULL
            """, within: .outsideRequest)
    }

    public func bury(_ claim: ClaimedMail, reason: String) async throws -> Bool {
        try await !connections.query(
            """
            UPDATE tessera_mail_outbox SET dead_at = now(), last_error = \(String(reason.prefix(1000)))
            WHERE id = \(claim.id) AND attempts = \(claim.claim) AND delivered_at IS NULL AND dead_at IS NULL RETURNING id
            """, within: .outsideRequest
        ).isEmpty
    }

    public func nextDue() async throws -> Duration? {
        let rows = try await connections.query(
            """
            SELECT extract(epoch FROM min(due_at) - now())::float8 FROM tessera_mail_outbox WHERE delivered_at IS NULL AND dead_at IS NULL
            """, within: .outsideRequest)
        return try rows.first?.decode(Double?.self).map { Duration.seconds($0) }
    }

    /// Listens on ``arrivalsChannel``; each time listening (re)starts, a notice may have been
    /// missed, so that counts as an arrival too.
    public func followArrivals(_ arrived: @escaping @Sendable () -> Void) async {
        await PostgresListener(channel: Self.arrivalsChannel, connections: connections, logger: logger).run(
            started: { arrived() }, received: { _ in arrived() }, interrupted: {})
    }

    // MARK: Dead letters

    private static func deadLetters(_ rows: [PostgresRow]) throws -> [DeadLetter] {
        try rows.map { row in
            let (id, messageID, reference, recipients, reason, attempts, createdAt) = try row.decode(
                (Int64, String, String?, [String], String?, Int, Date).self)
            return DeadLetter(
                id: id, messageID: messageID, reference: reference, recipients: recipients, reason: reason ?? "", attempts: attempts,
                createdAt: createdAt)
        }
    }

    public func deadLetters(limit: Int) async throws -> [DeadLetter] {
        try Self.deadLetters(
            try await connections.query(
                """
                SELECT id, message_id, reference, recipients, last_error, attempts - resent_after, created_at FROM tessera_mail_outbox
                WHERE dead_at IS NOT NULL AND discarded_at IS NULL AND delivered_at IS NULL ORDER BY dead_at, id LIMIT \(limit)
                """, within: .outsideRequest))
    }

    public func deadLetter(_ id: Int64) async throws -> DeadLetter? {
        try Self.deadLetters(
            try await connections.query(
                """
                SELECT id, message_id, reference, recipients, last_error, attempts - resent_after, created_at FROM tessera_mail_outbox
                WHERE id = \(id) AND dead_at IS NOT NULL AND discarded_at IS NULL AND delivered_at IS NULL
                """, within: .outsideRequest)
        ).first
    }

    public func resend(_ id: Int64, as mail: OutgoingMail) async throws -> Bool {
        // One statement, so the notice goes out exactly when the row changed.
        try await !connections.query(
            """
            WITH sent_again AS (
                UPDATE tessera_mail_outbox SET sender = \(mail.sender), recipients = \(mail.recipients), data = \(mail.data),
                    reference = \(mail.reference), resent_after = attempts, due_at = now(), dead_at = NULL, last_error = NULL
                WHERE id = \(id) AND dead_at IS NOT NULL AND discarded_at IS NULL AND delivered_at IS NULL RETURNING id
            )
            SELECT id, pg_notify(\(Self.arrivalsChannel), '') FROM sent_again
            """, within: .outsideRequest
        ).isEmpty
    }

    public func discard(_ id: Int64) async throws -> Bool {
        try await !connections.query(
            """
            UPDATE tessera_mail_outbox SET discarded_at = now()
            WHERE id = \(id) AND dead_at IS NOT NULL AND discarded_at IS NULL AND delivered_at IS NULL RETURNING id
            """, within: .outsideRequest
        ).isEmpty
    }
}
