import Foundation
import GRDB
import Logging
import Synchronization
import Tessera
import TesseraMail
import TesseraMailSQLite
import TesseraSQLite
import Testing

/// The outbox on SQLite: a mail is claimed by one worker at a time, comes back after its lease
/// or its retry delay, and once delivered is never claimed again.
@Suite struct SQLiteMailOutboxTests {
    let pool: DatabasePool
    let clock = Clock()
    let outbox: SQLiteMailOutbox
    let realClock: Bool

    /// A clock the test moves by hand.
    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
    }

    /// - Parameter realClock: the outbox on the system's clock, for a worker that really waits.
    init(realClock: Bool = false) throws {
        self.realClock = realClock
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mail-outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        pool = try DatabasePool(path: folder.appendingPathComponent("test.sqlite").path)
        var migrator = DatabaseMigrator()
        SQLiteMailOutbox.registerMigrations(in: &migrator)
        try migrator.migrate(pool)
        let clock = clock
        outbox = realClock ? SQLiteMailOutbox(database: pool) : SQLiteMailOutbox(database: pool, now: { clock.now.withLock { $0 } })
    }

    func mail(_ id: String) -> OutgoingMail {
        OutgoingMail(messageID: id, sender: "shop@example.com", recipients: ["a@example.com", "b@example.com"], data: "Subject: \(id)\r\n\r\nHi\r\n")
    }

    func enqueue(_ mail: OutgoingMail) throws {
        let now = realClock ? Date() : clock.now.withLock { $0 }
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

    @Test func aMailRefusedForGoodIsADeadLetterUntilStaffSendItAgainOrDiscardIt() async throws {
        try enqueue(
            OutgoingMail(
                messageID: "m1", sender: "shop@example.com", recipients: ["gone@example.com"], data: "Subject: 1\r\n\r\nHi\r\n",
                reference: "order:1:en"))
        let claim = try #require(try await outbox.claim(lease: .seconds(60)))
        #expect(try await outbox.bury(claim, reason: "550 no such user"))
        #expect(try await outbox.bury(claim, reason: "again") == false, "buried once")
        clock.advance(100_000)
        #expect(try await outbox.claim(lease: .seconds(60)) == nil, "a dead letter is never claimed by itself")
        let letters = try await outbox.deadLetters(limit: 10)
        #expect(letters.map(\.messageID) == ["m1"])
        #expect(letters.first?.reason == "550 no such user" && letters.first?.reference == "order:1:en" && letters.first?.attempts == 1)
        #expect(letters.first?.recipients == ["gone@example.com"])

        let mended = OutgoingMail(
            messageID: "m1", sender: "shop@example.com", recipients: ["here@example.com"], data: "Subject: 1\r\n\r\nAgain\r\n",
            reference: "order:1:en")
        #expect(try await outbox.resend(claim.id, as: mended))
        #expect(try await outbox.resend(claim.id, as: mended) == false, "a second click finds it gone")
        #expect(try await outbox.deadLetters(limit: 10).isEmpty)
        let again = try #require(try await outbox.claim(lease: .seconds(60)))
        #expect(again.mail == mended && again.attempts == 1, "sent again as made anew, from its first attempt")
        #expect(again.claim == 2, "a new claim number: the first claim's worker changes nothing now")
        #expect(try await outbox.bury(claim, reason: "a worker past its lease") == false)
        try await outbox.retry(claim, after: .seconds(3600), error: "a worker past its lease")
        #expect(try await outbox.deadLetters(limit: 10).isEmpty)
        try await outbox.delivered(again)
        #expect(try await outbox.discard(claim.id) == false, "a delivered mail is no dead letter")
    }

    @Test func aMailThatCouldNotBeMadeIsRecordedOnceAndCanBeDiscarded() async throws {
        let now = clock.now.withLock { $0 }
        let letter = UnsendableMail(messageID: "m2", reference: "order:2:de", recipient: "jürgen@example.de", reason: "not ASCII")
        try await pool.write { db in
            try SQLiteMailOutbox.writes(in: db, now: now).bury(letter)
            try SQLiteMailOutbox.writes(in: db, now: now).bury(letter)
        }
        #expect(try await outbox.claim(lease: .seconds(60)) == nil)
        let dead = try await outbox.deadLetters(limit: 10)
        #expect(dead.count == 1 && dead.first?.recipients == ["jürgen@example.de"] && dead.first?.attempts == 0 && dead.first?.reason == "not ASCII")
        let id = try #require(dead.first?.id)
        #expect(try await outbox.deadLetter(id)?.reference == "order:2:de")
        #expect(try await outbox.discard(id))
        #expect(try await outbox.deadLetter(id) == nil)
        #expect(try await outbox.deadLetters(limit: 10).isEmpty)
        #expect(try await outbox.resend(id, as: mail("m2")) == false, "a discarded letter stays discarded")
    }
}

/// The worker never polls: the outbox says when the next mail is due, and when mail arrives.
@Suite struct SQLiteMailOutboxArrivalTests {
    @Test func nextDueSaysWhenTheNextMailIsDue() async throws {
        let suite = try SQLiteMailOutboxTests()
        let outbox = suite.outbox
        #expect(try await outbox.nextDue() == nil, "nothing waits")
        try suite.enqueue(suite.mail("one@shop"))
        #expect(try await outbox.nextDue() == .zero)
        let claimed = try #require(try await outbox.claim(lease: .seconds(60)))
        #expect(try await outbox.nextDue() == .seconds(60), "due again when its lease ends")
        try await outbox.retry(claimed, after: .seconds(4), error: "451 try later")
        #expect(try await outbox.nextDue() == .seconds(4))
        suite.clock.advance(5)
        #expect(try await outbox.nextDue() == .seconds(-1), "overdue")
        let again = try #require(try await outbox.claim(lease: .seconds(60)))
        try await outbox.delivered(again)
        #expect(try await outbox.nextDue() == nil)
    }

    /// Each queued (or resent) mail is heard once its transaction commits; the worker's own
    /// claims, retries, deliveries and burials are not, nor a transaction rolled back.
    @Test func arrivalsAreHeardForCommittedMailOnly() async throws {
        let suite = try SQLiteMailOutboxTests()
        let outbox = suite.outbox
        let heard = Mutex(0)
        let (started, startedHere) = AsyncStream<Void>.makeStream()
        let following = Task {
            await outbox.followArrivals {
                if heard.withLock({ count in
                    count += 1
                    return count
                }) == 1 {
                    startedHere.yield()
                }
            }
        }
        defer { following.cancel() }
        for await _ in started { break }
        #expect(heard.withLock { $0 } == 1, "following began: whatever waited may be due")

        try suite.enqueue(suite.mail("one@shop"))
        #expect(heard.withLock { $0 } == 2)
        struct Rollback: Error {}
        #expect(throws: Rollback.self) {
            try suite.pool.write { db in
                try SQLiteMailOutbox.writes(in: db).enqueue(suite.mail("never@shop"))
                throw Rollback()
            }
        }
        #expect(heard.withLock { $0 } == 2, "a rolled-back mail is not heard")

        let claimed = try #require(try await outbox.claim(lease: .seconds(60)))
        try await outbox.retry(claimed, after: .seconds(0), error: "451")
        let again = try #require(try await outbox.claim(lease: .seconds(60)))
        #expect(try await outbox.bury(again, reason: "550 no such user"))
        #expect(heard.withLock { $0 } == 2, "the worker's own changes wake nobody")

        #expect(try await outbox.resend(claimed.id, as: suite.mail("one@shop")))
        #expect(heard.withLock { $0 } == 3, "a dead letter sent again is due at once")
    }

    /// A worker with nothing to do sleeps without a limit, and a mail queued meanwhile still
    /// goes out: only the arrival can have woken it.
    @Test(.timeLimit(.minutes(1))) func aSleepingWorkerSendsAMailAsSoonAsItIsQueued() async throws {
        let suite = try SQLiteMailOutboxTests(realClock: true)
        let outbox = SleepWatchingOutbox(suite.outbox)
        let transport = RecordingTransport()
        let worker = MailOutboxWorker(outbox: outbox, transport: transport, logger: Logger(label: "test"))
        let running = Task { try await worker.run() }
        defer { running.cancel() }
        var asleep = outbox.asleep.makeAsyncIterator()
        var sent = transport.sent.makeAsyncIterator()
        for messageID in ["woken@shop", "again@shop"] {
            await asleep.next()  // nothing due: the worker sleeps with no limit
            try suite.enqueue(suite.mail(messageID))
            #expect(await sent.next() == messageID)
        }
    }

    /// The SQLite outbox, telling when the worker learns that nothing waits (and so sleeps until
    /// an arrival). The arrival heard when following starts is not passed on, so that each time
    /// the worker is told nothing waits, it really sleeps until a commit wakes it.
    final class SleepWatchingOutbox: MailOutbox {
        let outbox: SQLiteMailOutbox
        let asleep: AsyncStream<Void>
        private let sleeping: AsyncStream<Void>.Continuation
        init(_ outbox: SQLiteMailOutbox) {
            self.outbox = outbox
            (asleep, sleeping) = AsyncStream.makeStream()
        }
        func claim(lease: Duration) async throws -> ClaimedMail? { try await outbox.claim(lease: lease) }
        func delivered(_ claim: ClaimedMail) async throws { try await outbox.delivered(claim) }
        func retry(_ claim: ClaimedMail, after delay: Duration, error: String) async throws {
            try await outbox.retry(claim, after: delay, error: error)
        }
        func bury(_ claim: ClaimedMail, reason: String) async throws -> Bool { try await outbox.bury(claim, reason: reason) }
        func nextDue() async throws -> Duration? {
            let due = try await outbox.nextDue()
            if due == nil { sleeping.yield() }
            return due
        }
        func followArrivals(_ arrived: @escaping @Sendable () -> Void) async {
            let started = Mutex(false)
            await outbox.followArrivals {
                if started.withLock({ $0 }) { arrived() } else { started.withLock { $0 = true } }
            }
        }
    }

    final class RecordingTransport: MailTransport {
        let sent: AsyncStream<String>
        private let sending: AsyncStream<String>.Continuation
        init() { (sent, sending) = AsyncStream.makeStream() }
        func send(_ mail: OutgoingMail) async throws { sending.yield(mail.messageID) }
    }
}
