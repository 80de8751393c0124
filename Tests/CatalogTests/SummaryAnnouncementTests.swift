import PostgresTestSupport
import Synchronization
import Tessera
import TesseraPostgres
import Testing

@testable import Catalog

/// A commit that changes the catalog's categories or counts is announced by the database itself
/// on the topic bus's channel, so every instance's summary hears it, whoever wrote.
@Suite struct SummaryAnnouncementTests {
    @Test func aProductInsertedBehindTheServicesBackIsAnnouncedOnTheTopicBus() async throws {
        try await CatalogDatabase.with(.postgres) { catalog in
            let pool = PostgresTestCluster.connections(try #require(catalog.postgresURL), size: 2)
            let heard = Mutex<[Topic]>([])
            let listening = Mutex(false)
            let bus = PostgresTopicBus(connections: pool, logger: PostgresTestCluster.logger)
            let listener = Task {
                await bus.listen(
                    deliver: { topics in heard.withLock { $0 += topics } },
                    resynchronize: { listening.withLock { $0 = true } }, interrupted: {})
            }
            func waitFor(_ condition: () -> Bool) async throws -> Bool {
                for _ in 0..<200 where !condition() { try await Task.sleep(for: .milliseconds(50)) }
                return condition()
            }
            #expect(try await waitFor { listening.withLock { $0 } })
            var product = try await catalog.service.product(id: 1, within: .outsideRequest)
            _ = try await catalog.service.adjust(
                productID: 1, stock: product.stock + 1, priceMinor: product.priceMinor, expectedStock: product.stock, within: .outsideRequest)
            product.id = 9_001
            try await catalog.insert(product)
            #expect(try await waitFor { heard.withLock { $0.contains(CatalogSummaryCache.topic) } }, "\(heard.withLock { $0 })")
            #expect(heard.withLock { $0 } == [CatalogSummaryCache.topic], "a change of stock is not announced")
            listener.cancel()
            await listener.value
            await pool.shutdown()
        }
    }
}
