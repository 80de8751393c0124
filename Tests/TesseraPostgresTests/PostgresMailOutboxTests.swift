import PostgresTestSupport
import Synchronization
import Tessera
import TesseraMail
import Testing

@testable import TesseraMailPostgres
@testable import TesseraPostgres

/// The outbox on PostgreSQL tells every instance's worker when mail arrives, so none polls.
@Suite struct PostgresMailOutboxTests {
    static func migrator() -> PostgresMigrator {
        var migrator = PostgresMigrator()
        PostgresMailOutbox.registerMigrations(in: &migrator)
        return migrator
    }

    func mail(_ id: String) -> OutgoingMail {
        OutgoingMail(messageID: id, sender: "shop@example.com", recipients: ["a@example.com"], data: "Subject: \(id)\r\n\r\nHi\r\n")
    }

    /// One instance queues (in its own transaction, as an order does) and resends; the other
    /// hears each once it commits, and says when the next mail is due.
    @Test(.timeLimit(.minutes(1))) func anotherInstanceHearsMailArriveWhenItsTransactionCommits() async throws {
        let database = try await PostgresTestDatabase.make(migrator: Self.migrator())
        let otherPool = PostgresTestCluster.connections(database.url, size: 2)
        let writer = PostgresMailOutbox(connections: database.connections, logger: PostgresTestCluster.logger)
        let listener = PostgresMailOutbox(connections: otherPool, logger: PostgresTestCluster.logger)
        let (arrivals, arriving) = AsyncStream<Void>.makeStream()
        let following = Task { await listener.followArrivals { arriving.yield() } }
        var heard = arrivals.makeAsyncIterator()
        do {
            await heard.next()  // listening: whatever waited may be due
            #expect(try await listener.nextDue() == nil)

            struct Rollback: Error {}
            await #expect(throws: Rollback.self) {
                try await database.connections.write(within: .outsideRequest) { connection in
                    try PostgresMailOutbox.writes(in: connection).enqueue(mail("never@shop"))
                    throw Rollback()
                }
            }
            try await database.connections.write(within: .outsideRequest) { connection in
                try PostgresMailOutbox.writes(in: connection).enqueue(mail("one@shop"))
            }
            await heard.next()
            let due = try #require(try await listener.nextDue())
            #expect(due <= .zero, "due at once")

            let claimed = try #require(try await listener.claim(lease: .seconds(60)))
            #expect(claimed.mail.messageID == "one@shop", "the rolled-back mail was never queued")
            let leaseLeft = try #require(try await listener.nextDue())
            #expect(leaseLeft > .seconds(50) && leaseLeft <= .seconds(60), "due again when its lease ends")
            #expect(try await writer.bury(claimed, reason: "550 no such user"))
            #expect(try await listener.nextDue() == nil, "a dead letter waits for nobody")
            #expect(try await writer.resend(claimed.id, as: mail("one@shop")))
            await heard.next()
            #expect(try #require(try await listener.nextDue()) <= .zero)
            let claimedAgain = try #require(try await listener.claim(lease: .seconds(60)))
            #expect(claimedAgain.mail.messageID == "one@shop")
        } catch {
            following.cancel()
            await otherPool.shutdown()
            await database.remove()
            throw error
        }
        following.cancel()
        await following.value
        await otherPool.shutdown()
        await database.remove()
    }
}
