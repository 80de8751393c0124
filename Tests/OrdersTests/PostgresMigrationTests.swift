@testable import Accounts
import Catalog
import Foundation
import PostgresNIO
import PostgresTestSupport
@testable import Storefront
import TesseraPostgres
import Testing

/// The storefront's PostgreSQL schema as several instances meet it at start.
@Suite struct PostgresMigrationTests {
    /// `count` instances' connections to a new database, shut down and dropped after `body`.
    func withInstances(_ count: Int, _ body: ([PostgresConnections]) async throws -> Void) async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let pools = (0..<count).map { _ in PostgresConnections(url: url, size: 2, logger: PostgresTestCluster.logger) }
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
                for pool in pools { group.addTask { try await StorefrontPostgres.prepare(pool, demoPhotos: .drawnWhenAsked) } }
                try await group.waitForAll()
            }
            let applied = try await pools[0].read { connection in
                try connection.rows("SELECT name FROM tessera_migration ORDER BY name").map { try $0.decode(String.self) }
            }
            #expect(applied == StorefrontPostgres.migrator.names.sorted())
            let counts = try await pools[0].read { connection in
                try connection.rows("SELECT (SELECT count(*) FROM product), (SELECT count(*) FROM shop_user)").map { try $0.decode((Int, Int).self) }
            }
            #expect(counts.first?.0 == 40 && counts.first?.1 == AccountsSeed.users.count, "the demo data once, not once per instance")
        }
    }

    /// The demo seed's photos on PostgreSQL: drawn once by the first instance, in the database
    /// for every instance; one that starts later finds them all, and one whose seed was cut
    /// short draws only what is missing.
    @Test func theDemoPhotosAreDrawnOnceIntoTheDatabase() async throws {
        try await withInstances(2) { pools in
            func variants() async throws -> [String] {
                try await pools[0].read { connection in
                    try connection.rows("SELECT name FROM photo_variant ORDER BY name").map { try $0.decode(String.self) }
                }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for pool in pools { group.addTask { try await StorefrontPostgres.prepare(pool, demoPhotos: .drawnAtSeed) } }
                try await group.waitForAll()
            }
            let drawn = try await variants()
            #expect(drawn.count == 240 && drawn.allSatisfy { $0.hasPrefix("de30") }, "six variants of each of the 40 demo photos: \(drawn.count)")
            _ = try await pools[0].query("DELETE FROM photo_variant WHERE name LIKE 'de30000000000007-%'")
            try await StorefrontPostgres.prepare(pools[1], demoPhotos: .drawnAtSeed)
            #expect(try await variants() == drawn, "the six missing ones drawn again, nothing else")
        }
    }
}
