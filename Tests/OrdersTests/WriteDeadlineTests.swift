import Foundation
import GRDB
import Tessera
import TesseraSQLite
import Testing

@testable import Storefront

/// The storefront's SQLite writes while another process holds the file's write lock: a request's
/// write gives up at its patience even when a patient write outside any request (the mail
/// worker's) holds the writer ahead of it. The stall test once saw a request held until the
/// lock was let go, 3 s instead of its 2.
@Suite struct WriteDeadlineTests {
    @Test func aRequestsWriteLeavesAtItsPatienceBehindAPatientWrite() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-write-deadline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lockWait = FileLockWait(patience: .seconds(60))
        var configuration = Configuration()
        configuration.busyMode = lockWait.busyMode
        let pool = try DatabasePool(path: folder.appendingPathComponent("shop.sqlite").path, configuration: configuration)
        try await pool.write { db in try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)") }
        let database = MeasuredDatabase(pool, lockWait: lockWait)

        // Another process's lock: a connection of its own, in an immediate transaction.
        var holding = Configuration()
        holding.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: pool.path, configuration: holding)
        try await other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }

        // A write outside any request, as the mail worker's: it waits for the lock, up to 60 s here.
        let patient = Task { try await database.write { db in try db.execute(sql: "INSERT INTO item DEFAULT VALUES") } }
        let givingUp = ContinuousClock.now + .seconds(60)
        while !database.turns.isTaken {
            try #require(ContinuousClock.now < givingUp, "the patient write never took its turn")
            try await Task.sleep(for: .milliseconds(1))
        }
        // Then a request's write, with 200 ms of patience.
        let started = ContinuousClock.now
        let request = Task {
            try await database.write(within: .outsideRequest(patience: .milliseconds(200))) { db in
                try db.execute(sql: "INSERT INTO item DEFAULT VALUES")
            }
        }
        await #expect(throws: DatabaseUnavailable.self) { try await request.value }
        let waited = ContinuousClock.now - started
        // The lock is still held, so the patient write still waits: the request did not wait for it.
        #expect(waited < .seconds(30), "the request waited \(waited), as long as the lock was held")

        try await other.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        try await patient.value
        #expect(
            try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 1,
            "the patient write went in; the request's did not")
    }
}
