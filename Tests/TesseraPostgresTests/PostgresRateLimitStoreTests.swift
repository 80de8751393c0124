import Foundation
import PostgresTestSupport
import Testing

@testable import Tessera
@testable import TesseraPostgres

/// Rate-limit counts in a real PostgreSQL, shared by instances: two pools on one database stand
/// for two instances.
@Suite struct PostgresRateLimitStoreTests {
    static var migrator: PostgresMigrator {
        var migrator = PostgresMigrator()
        PostgresRateLimitStore.registerMigrations(in: &migrator)
        return migrator
    }

    @Test func twoInstancesCountingAtOnceAllowWhatOneAllows() async throws {
        let database = try await PostgresTestDatabase.make(migrator: Self.migrator, poolSize: 4)
        let otherPool = PostgresTestCluster.connections(database.url, size: 4)
        do {
            let rule = RateLimitRule(limit: 25, per: .seconds(3600))
            let instances = [PostgresRateLimitStore(connections: database.connections), PostgresRateLimitStore(connections: otherPool)]
                .map { RateLimit("signup", rule, by: .clientAddress, store: $0) }
            let now = Date()
            // 60 requests at once, half through each instance: exactly the limit gets through.
            let allowed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<60 {
                    group.addTask {
                        do {
                            try await instances[index % 2].count("signup:ada", now: now)
                            return true
                        } catch is RateLimited {
                            return false
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(allowed == 25)
            let refusal = await #expect(throws: RateLimited.self) { try await instances[0].count("signup:ada", now: now + 600) }
            #expect(refusal?.retryAfterSeconds == 3000)
            try await instances[1].count("signup:ada", now: now + 3600)  // a new window
        } catch {
            await otherPool.shutdown()
            await database.remove()
            throw error
        }
        await otherPool.shutdown()
        await database.remove()
    }

    @Test func aChangeKeepsWhatItLeavesAndForgetsWhatItRemoves() async throws {
        let database = try await PostgresTestDatabase.make(migrator: Self.migrator, poolSize: 2)
        do {
            let store = PostgresRateLimitStore(connections: database.connections)
            let now = Date(timeIntervalSince1970: 1_800_000_000.25)
            let kept = RateLimitCount(hits: 3, lastHit: now, blockedUntil: now + 8, expires: now + 3600)
            try await store.update(["a", "b", "a"], now: now, within: .outsideRequest) { counts in
                #expect(counts.isEmpty)
                counts["a"] = kept
                counts["b"] = RateLimitCount(hits: 1, lastHit: now, expires: now + 1)
            }
            let seen = try await store.update(["a", "b"], now: now, within: .outsideRequest) { $0 }
            #expect(seen == ["a": kept, "b": RateLimitCount(hits: 1, lastHit: now, expires: now + 1)])
            // Expired counts are absent; a thrown change keeps nothing; a removed one is deleted.
            #expect(try await store.update(["b"], now: now + 2, within: .outsideRequest) { $0 }.isEmpty)
            struct Refused: Error {}
            await #expect(throws: Refused.self) {
                try await store.update(["a"], now: now, within: .outsideRequest) {
                    $0["a"]?.hits = 99
                    throw Refused()
                }
            }
            #expect(try await store.update(["a"], now: now, within: .outsideRequest) { $0["a"]?.hits } == 3)
            try await store.update(["a"], now: now, within: .outsideRequest) { $0["a"] = nil }
            try await store.sweep(now: now + 2, within: .outsideRequest)
            let rows = try await database.connections.query("SELECT count(*)::bigint FROM tessera_rate_limit", within: .outsideRequest)
            #expect(try rows.first?.decode(Int.self) == 0, "the removed count is deleted, the expired one swept")
        } catch {
            await database.remove()
            throw error
        }
        await database.remove()
    }
}
