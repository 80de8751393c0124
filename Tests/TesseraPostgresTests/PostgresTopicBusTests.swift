import PostgresTestSupport
import Synchronization
import Tessera
import Testing

@testable import TesseraPostgres

/// Live topics between instances through a real PostgreSQL (`LISTEN`/`NOTIFY`).
@Suite struct PostgresTopicBusTests {
    /// What one instance's listener heard.
    final class Heard: Sendable {
        private let state = Mutex<(topics: [Topic], resynchronizations: Int, interruptions: Int)>(([], 0, 0))
        var topics: [Topic] { state.withLock { $0.topics } }
        var resynchronizations: Int { state.withLock { $0.resynchronizations } }
        var interruptions: Int { state.withLock { $0.interruptions } }
        func deliver(_ topics: [Topic]) { state.withLock { $0.topics += topics } }
        func resynchronize() { state.withLock { $0.resynchronizations += 1 } }
        func interrupt() { state.withLock { $0.interruptions += 1 } }

        /// Waits up to ten seconds for `condition`.
        func wait(until condition: (Heard) -> Bool) async throws -> Bool {
            for _ in 0..<200 {
                if condition(self) { return true }
                try await Task.sleep(for: .milliseconds(50))
            }
            return condition(self)
        }
    }

    @Test func topicsFromOneInstanceReachAnotherWhichCatchesUpAfterItsListenerDrops() async throws {
        let database = try await PostgresTestDatabase.make()
        let otherPool = PostgresTestCluster.connections(database.url, size: 2)
        do {
            let sender = PostgresTopicBus(connections: database.connections, logger: PostgresTestCluster.logger)
            let receiver = PostgresTopicBus(connections: otherPool, logger: PostgresTestCluster.logger)
            let heard = Heard()
            let listening = Task { await receiver.listen(deliver: heard.deliver, resynchronize: heard.resynchronize, interrupted: heard.interrupt) }
            #expect(try await heard.wait { $0.resynchronizations == 1 }, "listening: every open region is rendered once")

            await sender.send([Topic(name: "order.1"), Topic(name: "product.2")])
            #expect(try await heard.wait { $0.topics == [Topic(name: "order.1"), Topic(name: "product.2")] })

            await receiver.send([Topic(name: "order.9")])  // its own: already delivered in its process
            await sender.send([Topic(name: "order.3")])
            #expect(try await heard.wait { $0.topics.contains(Topic(name: "order.3")) })
            #expect(!heard.topics.contains(Topic(name: "order.9")))

            // The listener's connection is cut from outside, as a database restart would.
            let cut = try await database.connections.withoutTransaction(within: .outsideRequest) { connection in
                try connection.rows(
                    """
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE datname = current_database() AND application_name LIKE 'tessera listen %' AND pid <> pg_backend_pid()
                    """
                ).count
            }
            #expect(cut == 1)
            #expect(try await heard.wait { $0.interruptions >= 1 }, "told that changes may go unheard")
            #expect(try await heard.wait { $0.resynchronizations == 2 }, "back: whatever went by unheard is rendered again")
            await sender.send([Topic(name: "order.4")])
            #expect(try await heard.wait { $0.topics.contains(Topic(name: "order.4")) })

            listening.cancel()
            await listening.value  // a shutdown is not held by the listener
        } catch {
            await otherPool.shutdown()
            await database.remove()
            throw error
        }
        await otherPool.shutdown()
        await database.remove()
    }

    @Test func manyTopicsGoInSeveralNotificationsUnderPostgreSQLsLimit() {
        let topics = (0..<2_000).map { Topic(name: "product.\($0)") }
        let payloads = PostgresTopicBus.payloads(from: "abcd1234", version: 7, topics: topics)
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.utf8.count < 8_000 })
        let messages = payloads.compactMap(PostgresTopicBus.message)
        #expect(messages.count == payloads.count)
        #expect(messages.flatMap(\.topics) == topics)
        #expect(messages.allSatisfy { $0.instance == "abcd1234" && $0.version == 7 })
        #expect(PostgresTopicBus.message("something else\norder.1") == nil, "another program's notification")
    }
}
