import Foundation
import GRDB
import TesseraSQLite
import Testing

@Suite struct InlineReaderTests {
    let folder: URL
    let pool: DatabasePool
    let reader: InlineReader

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("inline-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        pool = try DatabasePool(path: folder.appendingPathComponent("test.sqlite").path)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO item (name) VALUES ('first')")
        }
        reader = InlineReader(path: pool.path)
    }

    @Test func seesEveryCommittedWrite() throws {
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 1)
        try pool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('second')") }
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 2)
    }

    /// Two statements of one read see the same snapshot, even when a write commits between them.
    @Test func oneReadIsOneSnapshot() throws {
        let (before, after) = try reader.read { db in
            let before = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item")
            try pool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('during')") }
            return (before, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item"))
        }
        #expect(before == 1 && after == 1)
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 2)
    }

    /// A read does not wait for a write in progress: it sees the last commit. The write, on a
    /// thread of its own, stays open until the read is done (or 10 s have passed, which would
    /// fail the count).
    @Test func doesNotWaitForTheWriter() throws {
        let writing = DispatchSemaphore(value: 0), readDone = DispatchSemaphore(value: 0), committed = DispatchSemaphore(value: 0)
        let writer = Thread { [pool] in
            try? pool.write { db in
                try db.execute(sql: "INSERT INTO item (name) VALUES ('slow')")
                writing.signal()
                _ = readDone.wait(timeout: .now() + 10)
            }
            committed.signal()
        }
        writer.start()
        writing.wait()
        let count = try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
        readDone.signal()
        committed.wait()
        #expect(count == 1)
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 2)
    }

    @Test func refusesWrites() throws {
        #expect(throws: DatabaseError.self) {
            try reader.read { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('no')") }
        }
        #expect(try pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 1)
    }

    /// A read that throws ends its transaction, and its connection serves the next read.
    @Test func aFailedReadLeavesNothingOpen() throws {
        #expect(throws: DatabaseError.self) { try reader.read { db in try Row.fetchAll(db, sql: "SELECT * FROM missing") } }
        try pool.write { db in try db.execute(sql: "INSERT INTO item (name) VALUES ('after')") }
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == 2)
    }

    /// Many threads at once each get a connection; none sees a torn or failed read.
    @Test func manyThreadsReadAtOnce() async throws {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask { [reader] in
                    var total = 0
                    for _ in 0..<200 { total += try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0 } }
                    return total
                }
            }
            for try await total in group { #expect(total == 200) }
        }
    }
}
