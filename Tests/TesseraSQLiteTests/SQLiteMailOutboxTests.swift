import Foundation
import GRDB
import Synchronization
import Testing
import Tessera
import TesseraSQLite

/// The outbox on SQLite: a mail is claimed by one worker at a time, comes back after its lease
/// or its retry delay, and once delivered is never claimed again.
@Suite struct SQLiteMailOutboxTests {
    let pool: DatabasePool
    let clock = Clock()
    let outbox: SQLiteMailOutbox

    /// A clock the test moves by hand.
    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
    }

    init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mail-outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        pool = try DatabasePool(path: folder.appendingPathComponent("test.sqlite").path)
        var migrator = DatabaseMigrator()
        SQLiteMailOutbox.registerMigrations(in: &migrator)
        try migrator.migrate(pool)
        let clock = clock
        outbox = SQLiteMailOutbox(database: pool, now: { clock.now.withLock { $0 } })
    }

    func mail(_ id: String) -> OutgoingMail {
        OutgoingMail(messageID: id, sender: "shop@example.com", recipients: ["a@example.com", "b@example.com"], data: "Subject: \(id)\r\n\r\nHi\r\n")
    }

    func enqueue(_ mail: OutgoingMail) throws {
        let now = clock.now.withLock { $0 }
        try pool.write { db in try SQLiteMailOutbox.writes(in: db, now: now).enqueue(mail) }
    }

    @Test func aClaimedMailIsHiddenUntilItsLeaseEnds() async throws {
        try enqueue(mail("one@shop"))
        let claimed = try #require(try await outbox.claim(lease: .seconds(60)))
        #expect(claimed.mail == mail("one@shop"))
        #expect(claimed.attempts == 1)
        #expect(try await outbox.claim(lease: .seconds(60)) == nil, "another worker does not get it")
        clock.advance(61)
        let again = try #require(try await outbox.claim(lease: .seconds(60)), "a worker that died while sending: the mail is due again")
        #expect(again.id == claimed.id)
        #expect(again.attempts == 2)
    }

    @Test func aFailedMailComesBackAfterItsDelayAndADeliveredOneNever() async throws {
        try enqueue(mail("one@shop"))
        let claimed = try #require(try await outbox.claim(lease: .seconds(60)))
        try await outbox.retry(claimed, after: .seconds(4), error: "451 try later")
        clock.advance(3)
        #expect(try await outbox.claim(lease: .seconds(60)) == nil)
        clock.advance(1)
        let again = try #require(try await outbox.claim(lease: .seconds(60)))
        try await outbox.delivered(again)
        clock.advance(3600)
        #expect(try await outbox.claim(lease: .seconds(60)) == nil)
        let row = try pool.read { db in try Row.fetchOne(db, sql: "SELECT attempts, last_error, delivered_at FROM tessera_mail_outbox") }
        #expect(row?["attempts"] == 2)
        #expect(row?["last_error"] as String? == nil)
        #expect(row?["delivered_at"] as Double? != nil)
    }

    @Test func aWorkerThatOutlivedItsLeaseChangesNothingTheNextOneDid() async throws {
        try enqueue(mail("slow@shop"))
        let slow = try #require(try await outbox.claim(lease: .seconds(60)))
        clock.advance(61)
        let next = try #require(try await outbox.claim(lease: .seconds(60)))
        #expect(next.attempts == 2)
        // The slow worker's failure arrives late: the mail stays with the second worker's claim.
        try await outbox.retry(slow, after: .seconds(0), error: "late")
        #expect(try await outbox.claim(lease: .seconds(60)) == nil, "not due again while the second worker sends it")
        try await outbox.delivered(next)
        try await outbox.retry(next, after: .seconds(0), error: "after delivery")
        clock.advance(3600)
        #expect(try await outbox.claim(lease: .seconds(60)) == nil, "a delivered mail is never due again")
    }

    @Test func theSameMessageIDIsQueuedOnceAndMailGoesOldestFirst() async throws {
        try enqueue(mail("first@shop"))
        clock.advance(1)
        try enqueue(mail("second@shop"))
        try enqueue(mail("first@shop"))
        let count = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tessera_mail_outbox") }
        #expect(count == 2)
        #expect(try await outbox.claim(lease: .seconds(60))?.mail.messageID == "first@shop")
        #expect(try await outbox.claim(lease: .seconds(60))?.mail.messageID == "second@shop")
        #expect(try await outbox.claim(lease: .seconds(60)) == nil)
    }

    @Test func aRolledBackTransactionLeavesNoMail() async throws {
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try pool.write { db in
                try SQLiteMailOutbox.writes(in: db).enqueue(mail("rolled-back@shop"))
                throw Refused()
            }
        }
        #expect(try await outbox.claim(lease: .seconds(60)) == nil)
    }
}
