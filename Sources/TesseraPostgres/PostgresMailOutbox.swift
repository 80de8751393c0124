import Foundation
import PostgresNIO
import Tessera

/// The framework's mail outbox (`MailOutbox`) in PostgreSQL, shared by every instance
/// on the database: each worker claims a mail with `FOR UPDATE SKIP LOCKED` in one statement,
/// so two instances never take the same mail, and neither waits for the other. Times are the
/// database's (`now()`), so instances whose clocks differ agree on what is due.
public struct PostgresMailOutbox: MailOutbox {
    let connections: PostgresConnections

    /// The outbox on `connections`' database, after ``registerMigrations(in:)``'s migration ran.
    public init(connections: PostgresConnections) {
        self.connections = connections
    }

    /// The outbox's table, `tessera_mail_outbox`: register it with the app's own migrations.
    public static func registerMigrations(in migrator: inout PostgresMigrator) {
        migrator.register("tessera.v1.mail-outbox", [
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
    }

    /// The outbox on the connection of a transaction that is already open, such as an order's.
    public static func writes(in connection: BlockingConnection) -> some MailOutboxWrites {
        Writes(connection: connection)
    }

    struct Writes: MailOutboxWrites {
        let connection: BlockingConnection

        func enqueue(_ mail: OutgoingMail) throws {
            try connection.execute("""
                INSERT INTO tessera_mail_outbox (message_id, sender, recipients, data)
                VALUES (\(mail.messageID), \(mail.sender), \(mail.recipients), \(mail.data)) ON CONFLICT (message_id) DO NOTHING
                """)
        }
    }

    public func claim(lease: Duration) async throws -> ClaimedMail? {
        let leaseSeconds = lease.timeInterval
        let rows = try await connections.query("""
            UPDATE tessera_mail_outbox SET attempts = attempts + 1, due_at = now() + \(leaseSeconds) * interval '1 second'
            WHERE id = (
                SELECT id FROM tessera_mail_outbox WHERE delivered_at IS NULL AND due_at <= now()
                ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
            )
            RETURNING id, attempts, message_id, sender, recipients, data
            """)
        guard let row = rows.first else { return nil }
        let (id, attempts, messageID, sender, recipients, data) = try row.decode((Int64, Int, String, String, [String], String).self)
        return ClaimedMail(id: id, attempts: attempts, mail: OutgoingMail(messageID: messageID, sender: sender, recipients: recipients, data: data))
    }

    public func delivered(_ claim: ClaimedMail) async throws {
        _ = try await connections.query("UPDATE tessera_mail_outbox SET delivered_at = now(), last_error = NULL WHERE id = \(claim.id) AND delivered_at IS NULL")
    }

    public func retry(_ claim: ClaimedMail, after delay: Duration, error: String) async throws {
        let delaySeconds = delay.timeInterval
        _ = try await connections.query("""
            UPDATE tessera_mail_outbox SET due_at = now() + \(delaySeconds) * interval '1 second', last_error = \(String(error.prefix(1000)))
            WHERE id = \(claim.id) AND attempts = \(claim.attempts) AND delivered_at IS NULL
            """)
    }
}
