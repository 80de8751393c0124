import Foundation
import PostgresTestSupport
import Tessera
import TesseraPostgres
import Testing

/// A PostgreSQL read sees one snapshot, as GRDB's does: a write committed between two of its
/// statements is not seen by the second.
@Suite struct PostgresSnapshotTests {
    @Test func aReadSeesOneMomentWhateverCommitsMeanwhile() async throws {
        let database = try await PostgresTestDatabase.make()
        let connections = database.connections
        do {
            try await connections.write(within: .outsideRequest) { try $0.execute("CREATE TABLE item (id bigint PRIMARY KEY)") }
            let firstCounted = DispatchSemaphore(value: 0), written = DispatchSemaphore(value: 0)
            async let counts = connections.read(within: .outsideRequest) { connection -> (Int, Int) in
                let first = try connection.rows("SELECT count(*) FROM item")[0].decode(Int.self)
                firstCounted.signal()
                written.wait()
                return (first, try connection.rows("SELECT count(*) FROM item")[0].decode(Int.self))
            }
            try await onPoolThread { firstCounted.wait() }
            try await connections.write(within: .outsideRequest) { try $0.execute("INSERT INTO item (id) VALUES (1)") }
            written.signal()
            let (first, second) = try await counts
            #expect(first == 0 && second == 0, "the second statement sees the read's snapshot, not the commit")
            #expect(
                try await connections.read(within: .outsideRequest) { try $0.rows("SELECT count(*) FROM item")[0].decode(Int.self) } == 1,
                "the next read sees it")
        } catch {
            await database.remove()
            throw error
        }
        await database.remove()
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
