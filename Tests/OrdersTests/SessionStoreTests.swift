@testable import Accounts
import Foundation
import PostgresNIO
import PostgresTestSupport
@testable import Storefront
import TesseraPostgres
import Testing

/// Signed-in sessions kept by the accounts store, seen from two server instances on one
/// database: ending a session through one ends it on the other at once, on both databases.
@Suite struct SessionStoreTests {
    @Test(arguments: StoreKind.allCases)
    func aSessionEndedThroughOneInstanceIsEndedOnAll(_ kind: StoreKind) async throws {
        let database = try await ShopDatabase.make(kind)
        let other = try database.anotherInstance()
        do {
            let here = database.services.accounts, there = other.services.accounts
            try await AccountsSeed.seedIfEmpty(here.store)
            let user = try #require(try await here.store.user(email: AccountsSeed.users[0].email))

            try await here.startSession("first", userID: user.id)
            try await here.startSession("second", userID: user.id)
            #expect(try there.isSessionActive("first", userID: user.id), "a sign-in through one instance counts on the other")
            #expect(try !there.isSessionActive("first", userID: user.id + 1), "only for its own user")
            #expect(try !there.isSessionActive("never", userID: user.id))

            try await there.endSession("first")
            #expect(try !here.isSessionActive("first", userID: user.id), "signed out through the other instance")
            #expect(try here.isSessionActive("second", userID: user.id), "the user's other session goes on")

            // A password change ends every session of the user, wherever it started.
            try await here.store.endSessions(userID: user.id)
            #expect(try !there.isSessionActive("second", userID: user.id))
        } catch {
            await other.close()
            await database.remove()
            throw error
        }
        await other.close()
        await database.remove()
    }

    /// Instances that start together run the migrations once between them.
    @Test func instancesStartingTogetherMigrateOnce() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let pools = (0..<4).map { _ in PostgresConnections(url: url, size: 2, logger: PostgresTestCluster.logger) }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for pool in pools { group.addTask { try await StorefrontPostgres.prepare(pool) } }
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
        } catch {
            for pool in pools { await pool.shutdown() }
            await PostgresTestCluster.drop(url)
            throw error
        }
        for pool in pools { await pool.shutdown() }
        await PostgresTestCluster.drop(url)
    }
}

/// A PostgreSQL read sees one snapshot, as GRDB's does: a write committed between two of its
/// statements is not seen by the second.
@Suite struct PostgresSnapshotTests {
    @Test func aReadSeesOneMomentWhateverCommitsMeanwhile() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let connections = PostgresConnections(url: url, size: 4, logger: PostgresTestCluster.logger)
        do {
            try await connections.write { try $0.execute("CREATE TABLE item (id bigint PRIMARY KEY)") }
            let firstCounted = DispatchSemaphore(value: 0), written = DispatchSemaphore(value: 0)
            async let counts = connections.read { connection -> (Int, Int) in
                let first = try connection.rows("SELECT count(*) FROM item")[0].decode(Int.self)
                firstCounted.signal()
                written.wait()
                return (first, try connection.rows("SELECT count(*) FROM item")[0].decode(Int.self))
            }
            try await onPoolThread { firstCounted.wait() }
            try await connections.write { try $0.execute("INSERT INTO item (id) VALUES (1)") }
            written.signal()
            let (first, second) = try await counts
            #expect(first == 0 && second == 0, "the second statement sees the read's snapshot, not the commit")
            #expect(try await connections.read { try $0.rows("SELECT count(*) FROM item")[0].decode(Int.self) } == 1, "the next read sees it")
        } catch {
            await connections.shutdown()
            await PostgresTestCluster.drop(url)
            throw error
        }
        await connections.shutdown()
        await PostgresTestCluster.drop(url)
    }

    /// Waits on a thread of its own, not one of the few the test's tasks share.
    private func onPoolThread(_ wait: @escaping @Sendable () -> Void) async throws {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                wait()
                continuation.resume()
            }
        }
    }
}
