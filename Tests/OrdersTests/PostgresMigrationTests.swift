import Catalog
import Foundation
import PostgresTestSupport
import Tessera
import TesseraPostgres
import Testing

@testable import Accounts
@testable import Storefront

/// The storefront's PostgreSQL schema as several instances meet it at start.
@Suite struct PostgresMigrationTests {
    /// `count` instances' connections to a new database, shut down and dropped after `body`.
    func withInstances(_ count: Int, _ body: ([PostgresConnections]) async throws -> Void) async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let pools = (0..<count).map { _ in PostgresTestCluster.connections(url, size: 2) }
        do {
            try await body(pools)
        } catch {
            for pool in pools { await pool.shutdown() }
            await PostgresTestCluster.drop(url)
            throw error
        }
        for pool in pools { await pool.shutdown() }
        await PostgresTestCluster.drop(url)
    }

    /// Instances that start together run the migrations once between them.
    @Test func instancesStartingTogetherMigrateOnce() async throws {
        try await withInstances(4) { pools in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for pool in pools { group.addTask { try await StorefrontPostgres.prepare(pool, hasher: .forTests) } }
                try await group.waitForAll()
            }
            let applied = try await pools[0].read(within: .outsideRequest) { connection in
                try connection.rows("SELECT name FROM tessera_migration ORDER BY name").map { try $0.decode(String.self) }
            }
            #expect(applied == StorefrontPostgres.migrator.names.sorted())
            let counts = try await pools[0].read(within: .outsideRequest) { connection in
                try connection.rows("SELECT (SELECT count(*) FROM product), (SELECT count(*) FROM shop_user)").map { try $0.decode((Int, Int).self) }
            }
            #expect(counts.first?.0 == 40 && counts.first?.1 == AccountsSeed.users.count, "the demo data once, not once per instance")
        }
    }

    /// An instance starts while a seed paints the demo photos on another machine: it does not
    /// wait for the painting, which holds a lock of its own.
    @Test func anInstanceStartsWhileASeedAddsPhotos() async throws {
        try await withInstances(2) { pools in
            // Were the start to take the same lock, it would wait here until it gave up, and throw.
            try await pools[0].withAdvisoryLock(StorefrontPostgres.photoLock) {
                try await StorefrontPostgres.prepare(pools[1], hasher: .forTests)
            }
            let products = try await pools[1].query("SELECT count(*)::int FROM product", within: .outsideRequest).first?.decode(Int.self)
            #expect(products == 40, "the start went through while the photo lock was held")
        }
    }

    /// `storefront seed` on PostgreSQL: two seeds at once add each demo photo once, into the
    /// database every instance reads; a seed run again adds only a photo that is missing. An
    /// instance's start draws none.
    @Test func theSeedAddsEachDemoPhotoOnceIntoTheDatabase() async throws {
        try await withInstances(2) { pools in
            func photos() async throws -> [String] {
                try await pools[0].read(within: .outsideRequest) { connection in
                    try connection.rows("SELECT product_id::text || ':' || fingerprint FROM product_photo ORDER BY product_id").map {
                        try $0.decode(String.self)
                    }
                }
            }
            func variants() async throws -> Int {
                try await pools[0].query("SELECT count(*)::int FROM photo_variant", within: .outsideRequest).first?.decode(Int.self) ?? -1
            }
            try await StorefrontPostgres.prepare(pools[0], hasher: .forTests)
            #expect(try await photos().isEmpty, "a start draws no photo")
            let added = try await withThrowingTaskGroup(of: Int.self) { group in
                for pool in pools { group.addTask { try await StorefrontPostgres.seedDemoShop(pool, hasher: .forTests) } }
                return try await group.reduce(0, +)
            }
            let seeded = try await photos()
            #expect(added == 40 && seeded.count == 40, "one photo for each of the 40 demo products: \(added), \(seeded.count)")
            #expect(try await variants() == 240, "six variants of each")
            _ = try await pools[0].query("DELETE FROM product_photo WHERE product_id = 7", within: .outsideRequest)
            #expect(try await StorefrontPostgres.seedDemoShop(pools[1], hasher: .forTests) == 1)
            #expect(try await photos() == seeded, "the missing one added again, the same picture; nothing else")
        }
    }
}
