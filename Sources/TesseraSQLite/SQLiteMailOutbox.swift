import Foundation
import GRDB
import Tessera

/// The framework's mail outbox (`MailOutbox`) in the app's SQLite database: a table
/// that the app's transactions write to (``writes(in:now:)``) and `MailOutboxWorker` reads.
///
/// SQLite has one writer at a time, so claiming a mail needs no more than a write transaction.
public struct SQLiteMailOutbox: MailOutbox {
    let database: any DatabaseWriter
    let now: @Sendable () -> Date

    /// The outbox in `database`, after ``registerMigrations(in:)``'s migration ran.
    public init(database: any DatabaseWriter, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    /// The outbox's table, `tessera_mail_outbox`: register it with the app's own migrations.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("tessera.v1.mail-outbox") { db in
            try db.execute(sql: """
                CREATE TABLE tessera_mail_outbox (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    message_id TEXT NOT NULL UNIQUE,
                    sender TEXT NOT NULL,
                    recipients TEXT NOT NULL,
                    data TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    due_at REAL NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    delivered_at REAL,
                    last_error TEXT
                );
                CREATE INDEX tessera_mail_outbox_due ON tessera_mail_outbox(due_at) WHERE delivered_at IS NULL;
                """)
        }
    }

    /// The outbox on the connection of a transaction that is already open, such as an order's.
    public static func writes(in db: Database, now: Date = Date()) -> some MailOutboxWrites {
        Writes(db: db, now: now)
    }

    struct Writes: MailOutboxWrites {
        let db: Database
        let now: Date

        func enqueue(_ mail: OutgoingMail) throws {
            try db.execute(sql: """
                INSERT INTO tessera_mail_outbox (message_id, sender, recipients, data, created_at, due_at)
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO NOTHING
                """, arguments: [mail.messageID, mail.sender, mail.recipients.joined(separator: "\n"), mail.data,
                                 now.timeIntervalSince1970, now.timeIntervalSince1970])
        }
    }

    public func claim(lease: Duration) async throws -> ClaimedMail? {
        let now = now().timeIntervalSince1970
        return try await database.write { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT id, attempts, message_id, sender, recipients, data FROM tessera_mail_outbox
                WHERE delivered_at IS NULL AND due_at <= ? ORDER BY due_at, id LIMIT 1
                """, arguments: [now]) else { return nil }
            let id: Int64 = row["id"]
            let attempts: Int = row["attempts"] + 1
            try db.execute(sql: "UPDATE tessera_mail_outbox SET attempts = ?, due_at = ? WHERE id = ?",
                           arguments: [attempts, now + lease.timeInterval, id])
            let recipients: String = row["recipients"]
            return ClaimedMail(id: id, attempts: attempts, mail: OutgoingMail(
                messageID: row["message_id"], sender: row["sender"],
                recipients: recipients.split(separator: "\n").map(String.init), data: row["data"]))
        }
    }

    public func delivered(_ claim: ClaimedMail) async throws {
        let now = now().timeIntervalSince1970
        try await database.write { db in
            try db.execute(sql: "UPDATE tessera_mail_outbox SET delivered_at = ?, last_error = NULL WHERE id = ? AND delivered_at IS NULL",
                           arguments: [now, claim.id])
        }
    }

    public func retry(_ claim: ClaimedMail, after delay: Duration, error: String) async throws {
        let due = now().timeIntervalSince1970 + delay.timeInterval
        try await database.write { db in
            try db.execute(sql: "UPDATE tessera_mail_outbox SET due_at = ?, last_error = ? WHERE id = ? AND attempts = ? AND delivered_at IS NULL",
                           arguments: [due, String(error.prefix(1000)), claim.id, claim.attempts])
        }
    }
}
