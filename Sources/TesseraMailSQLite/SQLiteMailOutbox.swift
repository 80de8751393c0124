public import Foundation
public import GRDB
import Tessera
public import TesseraMail
public import TesseraSQLite

/// The framework's mail outbox (`MailOutbox`) in the app's SQLite database: a table
/// that the app's transactions write to (``writes(in:now:)``) and `MailOutboxWorker` reads.
///
/// SQLite has one writer at a time, so claiming a mail needs no more than a write transaction.
/// A dead letter is a row with `dead_at` set; a discarded one keeps its row (and so its
/// `Message-ID`, which is never sent again) with `discarded_at` set. `attempts` counts every
/// claim and is the claim's number; `resent_after` is its value when staff last sent the mail
/// again, so the attempts of this round are the difference.
public struct SQLiteMailOutbox: MailOutbox, DeadLetterOffice {
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
            try db.execute(
                sql: """
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
        migrator.registerMigration("tessera.v2.mail-dead-letters") { db in
            try db.execute(
                sql: """
                    ALTER TABLE tessera_mail_outbox ADD COLUMN reference TEXT;
                    ALTER TABLE tessera_mail_outbox ADD COLUMN dead_at REAL;
                    ALTER TABLE tessera_mail_outbox ADD COLUMN discarded_at REAL;
                    ALTER TABLE tessera_mail_outbox ADD COLUMN resent_after INTEGER NOT NULL DEFAULT 0;
                    DROP INDEX tessera_mail_outbox_due;
                    CREATE INDEX tessera_mail_outbox_due ON tessera_mail_outbox(due_at) WHERE delivered_at IS NULL AND dead_at IS NULL;
                    CREATE INDEX tessera_mail_outbox_dead ON tessera_mail_outbox(dead_at) WHERE dead_at IS NOT NULL AND discarded_at IS NULL;
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
            try db.execute(
                sql: """
                    INSERT INTO tessera_mail_outbox (message_id, sender, recipients, data, reference, created_at, due_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO NOTHING
                    """,
                arguments: [
                    mail.messageID, mail.sender, mail.recipients.joined(separator: "\n"), mail.data, mail.reference,
                    now.timeIntervalSince1970, now.timeIntervalSince1970,
                ])
        }

        func bury(_ letter: UnsendableMail) throws {
            try db.execute(
                sql: """
                    INSERT INTO tessera_mail_outbox (message_id, sender, recipients, data, reference, created_at, due_at, dead_at, last_error)
                    VALUES (?, '', ?, '', ?, ?, ?, ?, ?) ON CONFLICT (message_id) DO NOTHING
                    """,
                arguments: [
                    letter.messageID, letter.recipient, letter.reference, now.timeIntervalSince1970, now.timeIntervalSince1970,
                    now.timeIntervalSince1970, String(letter.reason.prefix(1000)),
                ])
        }
    }

    public func claim(lease: Duration) async throws -> ClaimedMail? {
        let now = now().timeIntervalSince1970
        return try await database.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT id, attempts, resent_after, message_id, sender, recipients, data, reference FROM tessera_mail_outbox
                        WHERE delivered_at IS NULL AND dead_at IS NULL AND due_at <= ? ORDER BY due_at, id LIMIT 1
                        """, arguments: [now])
            else { return nil }
            let id: Int64 = row["id"]
            let claim: Int = row["attempts"] + 1
            try db.execute(
                sql: "UPDATE tessera_mail_outbox SET attempts = ?, due_at = ? WHERE id = ?",
                arguments: [claim, now + lease.timeInterval, id])
            let recipients: String = row["recipients"]
            return ClaimedMail(
                id: id, attempts: claim - row["resent_after"], claim: claim,
                mail: OutgoingMail(
                    messageID: row["message_id"], sender: row["sender"],
                    recipients: recipients.split(separator: "\n").map(String.init), data: row["data"], reference: row["reference"]))
        }
    }

    public func delivered(_ claim: ClaimedMail) async throws {
        let now = now().timeIntervalSince1970
        try await database.write { db in
            try db.execute(
                sql: "UPDATE tessera_mail_outbox SET delivered_at = ?, last_error = NULL WHERE id = ? AND delivered_at IS NULL",
                arguments: [now, claim.id])
            // A secret (a reset link) is not kept once it is on its way.
            if claim.mail.isSecret { try db.execute(sql: "UPDATE tessera_mail_outbox SET data = '' WHERE id = ?", arguments: [claim.id]) }
        }
    }

    public func retry(_ claim: ClaimedMail, after delay: Duration, error: String) async throws {
        let due = now().timeIntervalSince1970 + delay.timeInterval
        try await database.write { db in
            try db.execute(
                sql: "UPDATE tessera_mail_outbox SET due_at = ?, last_error = ? WHERE id = ? AND attempts = ? AND delivered_at IS NULL",
                arguments: [due, String(error.prefix(1000)), claim.id, claim.claim])
        }
    }

    public func bury(_ claim: ClaimedMail, reason: String) async throws -> Bool {
        let now = now().timeIntervalSince1970
        return try await database.write { db in
            try db.execute(
                sql: """
                    UPDATE tessera_mail_outbox SET dead_at = ?, last_error = ?
                    WHERE id = ? AND attempts = ? AND delivered_at IS NULL AND dead_at IS NULL
                    """, arguments: [now, String(reason.prefix(1000)), claim.id, claim.claim])
            return db.changesCount == 1
        }
    }

    public func nextDue() async throws -> Duration? {
        let now = now().timeIntervalSince1970
        let due = try await database.read { db in
            try Double.fetchOne(db, sql: "SELECT min(due_at) FROM tessera_mail_outbox WHERE delivered_at IS NULL AND dead_at IS NULL")
        }
        return due.map { Duration.seconds($0 - now) }
    }

    /// Hears every committed transaction of this process that queued mail or sent a dead letter
    /// again (the only writers of an SQLite database are this process's).
    public func followArrivals(_ arrived: @escaping @Sendable () -> Void) async {
        let observer = MailArrivals(arrived)
        database.add(transactionObserver: observer, extent: .observerLifetime)
        arrived()
        await Task.untilCancelled()
        database.remove(transactionObserver: observer)
    }

    // MARK: Dead letters

    private static let deadLetterColumns = "id, message_id, reference, recipients, last_error, attempts - resent_after AS attempts, created_at"
    private static let isDeadLetter = "dead_at IS NOT NULL AND discarded_at IS NULL AND delivered_at IS NULL"

    private static func deadLetter(_ row: Row) -> DeadLetter {
        let recipients: String = row["recipients"]
        return DeadLetter(
            id: row["id"], messageID: row["message_id"], reference: row["reference"],
            recipients: recipients.split(separator: "\n").map(String.init), reason: row["last_error"] ?? "",
            attempts: row["attempts"], createdAt: Date(timeIntervalSince1970: row["created_at"]))
    }

    public func deadLetters(limit: Int) async throws -> [DeadLetter] {
        try await database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.deadLetterColumns) FROM tessera_mail_outbox WHERE \(Self.isDeadLetter) ORDER BY dead_at, id LIMIT ?",
                arguments: [limit]
            ).map(Self.deadLetter)
        }
    }

    public func deadLetter(_ id: Int64) async throws -> DeadLetter? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT \(Self.deadLetterColumns) FROM tessera_mail_outbox WHERE id = ? AND \(Self.isDeadLetter)",
                arguments: [id]
            ).map(Self.deadLetter)
        }
    }

    public func resend(_ id: Int64, as mail: OutgoingMail) async throws -> Bool {
        let now = now().timeIntervalSince1970
        return try await database.write { db in
            try db.execute(
                sql: """
                    UPDATE tessera_mail_outbox SET sender = ?, recipients = ?, data = ?, reference = ?, resent_after = attempts, due_at = ?,
                        dead_at = NULL, last_error = NULL WHERE id = ? AND \(Self.isDeadLetter)
                    """, arguments: [mail.sender, mail.recipients.joined(separator: "\n"), mail.data, mail.reference, now, id])
            return db.changesCount == 1
        }
    }

    public func discard(_ id: Int64) async throws -> Bool {
        let now = now().timeIntervalSince1970
        return try await database.write { db in
            try db.execute(sql: "UPDATE tessera_mail_outbox SET discarded_at = ? WHERE id = ? AND \(Self.isDeadLetter)", arguments: [now, id])
            return db.changesCount == 1
        }
    }
}

/// Tells the worker of a committed transaction that inserted mail or sent a dead letter again
/// (the only writes that set `resent_after`), and of nothing else: the worker's own claims,
/// retries and deliveries only push mail later.
private final class MailArrivals: TransactionObserver, @unchecked Sendable {
    // @unchecked: `changed` is touched on the database's writer queue only, as GRDB calls it.
    private let arrived: @Sendable () -> Void
    private var changed = false

    init(_ arrived: @escaping @Sendable () -> Void) {
        self.arrived = arrived
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        switch eventKind {
        case .insert(let table): table == "tessera_mail_outbox"
        case .update(let table, let columns): table == "tessera_mail_outbox" && columns.contains("resent_after")
        case .delete: false
        }
    }

    func databaseDidChange(with event: DatabaseEvent) {
        changed = true
    }

    func databaseDidCommit(_ db: Database) {
        guard changed else { return }
        changed = false
        arrived()
    }

    func databaseDidRollback(_ db: Database) {
        changed = false
    }
}
