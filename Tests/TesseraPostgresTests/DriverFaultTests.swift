import Foundation
import PostgresTestSupport
import Synchronization
import Tessera
import TesseraHTTP
import Testing

@testable import TesseraPostgres

/// The loop's driver under the faults a database restart or a flood brings: statements queued
/// while a connection opens, a socket that fills, callers that have gone, more work than a
/// connection should hold.
@Suite struct DriverFaultTests {
    /// Hundreds of large statements queued while the connection is still opening, as after a
    /// restart under load: they go out as soon as it opens, the socket fills while answers come
    /// back, and the queue is compacted as they do. Every caller gets its own answer, and the
    /// process lives (an index past the queue's end once trapped here).
    @Test func statementsQueuedWhileConnectingAllGetTheirAnswers() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let connections = PostgresTestCluster.connections(url, size: 1)
        // 64 KiB each, 400 of them: 25 MiB, far more than a loopback socket's buffers hold.
        let payload = String(repeating: "x", count: 65_536)
        // One lease: its connection starts opening, and the 400 statements, from child tasks
        // on the same loop, queue on it before the loop has a turn to finish opening it.
        let lengths = try await connections.withConnection(within: .outsideRequest) { lease in
            try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for index in 0..<400 {
                    group.addTask {
                        let rows = try await lease.query("SELECT length(\(payload)) + \(index)")
                        return (index, try rows[0].decode(Int.self))
                    }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
        }
        #expect(lengths.count == 400)
        #expect(lengths.allSatisfy { $0.value == 65_536 + $0.key }, "each caller had its own statement's answer")
        await connections.shutdown()
        await PostgresTestCluster.drop(url)
    }

    /// With one statement on the wire at a time: a statement whose caller gives up while it
    /// waits its turn is never sent, and past the connection's and the loop's share another
    /// is refused at once, not queued.
    @Test func aBoundedQueueDropsWhatNobodyWaitsForAndRefusesTheRest() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let connections = PostgresConnections(
            url: url, size: 1, connectTimeout: .seconds(60), statementTimeout: .seconds(120),
            queueLimits: PostgresQueueLimits(window: 1, perConnection: 3, perLoop: 3), logger: PostgresTestCluster.logger)
        try await connections.execute("CREATE TABLE sent (x int)", within: .outsideRequest)
        func insert(_ value: Int, within budget: DatabaseBudget = .outsideRequest) async throws {
            try await connections.execute("INSERT INTO sent VALUES (\(value))", within: budget)
        }
        let lock = try HeldLock(key: 59, in: url)
        let refusals = try await connections.withConnection(within: .outsideRequest) { lease in
            try await withThrowingTaskGroup(of: Void.self) { group in
                // On the wire, held by the lock: the window is full.
                group.addTask { _ = try await lease.query("SELECT pg_advisory_lock(59), pg_advisory_unlock(59)") }
                while try !lock.hasAWaiter() { try await Task.sleep(for: .milliseconds(5)) }
                // Waits its turn for longer than its caller's patience: dropped unsent.
                await #expect(throws: DatabaseUnavailable.self) {
                    try await insert(1, within: .outsideRequest(patience: .milliseconds(200)))
                }
                // Two more wait their turn: the connection holds its three.
                group.addTask { _ = try await lease.query("SELECT 2") }
                group.addTask { _ = try await lease.query("SELECT 3") }
                while lease.connection.inFlight < 3 { try await Task.sleep(for: .milliseconds(5)) }
                var refusals: [String] = []
                do { _ = try await lease.query("SELECT 4") } catch let error as DatabaseUnavailable { refusals.append(error.reason) }
                do { _ = try await connections.query("SELECT 5", within: .outsideRequest) } catch let error as DatabaseUnavailable {
                    refusals.append(error.reason)
                }
                try lock.release()
                try await group.waitForAll()
                return refusals
            }
        }
        #expect(refusals == ["3 statements already wait on one connection", "3 statements already wait on this loop"])
        // Everything sent has been answered, in order: the dropped INSERT would have run by now.
        #expect(try await connections.query("SELECT count(*) FROM sent WHERE x = 1", within: .outsideRequest)[0].decode(Int.self) == 0)
        withExtendedLifetime(lock) {}
        await connections.shutdown()
        await PostgresTestCluster.drop(url)
    }

    /// A partition that closes nothing: the relay between the listener and PostgreSQL goes
    /// silent. Nothing the listener would send fails, yet it notices, through its heartbeat,
    /// and says it was interrupted, so whoever relies on it stops trusting what it has not
    /// heard. (Without the heartbeat it waited for TCP, hours; the time limit fails it.)
    @Test(.timeLimit(.minutes(1))) func aListenerNoticesASilentPartition() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let relay = try SilentRelay(upstreamPort: url.port)
        var relayed = url
        relayed.port = relay.port
        let connections = PostgresTestCluster.connections(relayed, size: 2)
        let listener = PostgresListener(
            channel: "partition", connections: connections, logger: PostgresTestCluster.logger, heartbeat: .milliseconds(200))
        let (events, heard) = AsyncStream.makeStream(of: String.self)
        let listening = Task {
            await listener.run(
                started: { heard.yield("started") }, received: { heard.yield("received \($0)") }, interrupted: { heard.yield("interrupted") })
        }
        var next = events.makeAsyncIterator()
        #expect(await next.next() == "started")
        // Heard through the relay while it forwards.
        let notifier = PostgresTestCluster.connections(url, size: 2)
        try await notifier.execute("NOTIFY partition, 'before'", within: .outsideRequest)
        await notifier.shutdown()
        #expect(await next.next() == "received before")
        relay.goSilent()
        #expect(await next.next() == "interrupted")
        listening.cancel()
        relay.close()
        await connections.shutdown()
        await PostgresTestCluster.drop(url)
    }

    /// A flood of statements from callers that give up after 100 ms: what the database still
    /// runs once they have all gone is bounded by the window, not by the flood. Counted, not
    /// timed: each statement that runs leaves a row; rows are counted when the last caller has
    /// gone, and again on the flood's connection, behind everything sent before. (Before the
    /// window, every statement of the 2,000 ran, most of them after their callers had gone.)
    /// One caller is patient, so that however busy the machine, at least one is answered.
    @Test func aFloodLeavesNoBacklogInTheDatabase() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let limits = PostgresQueueLimits()
        let connections = PostgresConnections(
            url: url, size: 1, connectTimeout: .seconds(60), statementTimeout: .seconds(120), queueLimits: limits,
            logger: PostgresTestCluster.logger)
        try await connections.execute("CREATE TABLE ran (n int)", within: .outsideRequest)
        let answered = await withTaskGroup(of: Bool.self) { group in
            for n in 0..<2000 {
                group.addTask {
                    do {
                        let budget = DatabaseBudget.outsideRequest(patience: n == 0 ? .seconds(60) : .milliseconds(100))
                        try await connections.execute("INSERT INTO ran SELECT \(n) FROM pg_sleep(0.002)", within: budget)
                        return true
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let counter = try BlockingConnection(url: url, timeout: .seconds(30))
        let ranBeforeTheEnd = try counter.rows("SELECT count(*) FROM ran")[0].decode(Int.self)
        let ran = try await connections.query("SELECT count(*) FROM ran", within: .outsideRequest)[0].decode(Int.self)
        #expect(answered > 0 && answered <= ranBeforeTheEnd, "\(answered) answered")
        // After the flood: at most those on the wire when the last caller went.
        #expect(ran - ranBeforeTheEnd <= limits.window, "\(ran - ranBeforeTheEnd) ran after the flood had ended")
        withExtendedLifetime(counter) {}
        await connections.shutdown()
        await PostgresTestCluster.drop(url)
    }

    /// A migration changes a table under a prepared `SELECT *`, and a pooler-style
    /// `DISCARD ALL` drops the session's statements: each costs one failed statement, and the
    /// next use prepares again, on the same connection, for a statement type and for a text.
    @Test func preparedStatementsHealAfterAMigrationAndADiscard() async throws {
        struct Everything: PostgresPreparedStatement {
            static let sql = "SELECT * FROM item"
            typealias Row = Int
            func makeBindings() throws -> PostgresBindings { PostgresBindings() }
            func decodeRow(_ row: PostgresRow) throws -> Row { row.count }
        }
        let url = try await PostgresTestCluster.newDatabase()
        let connections = PostgresTestCluster.connections(url, size: 1)
        try await connections.execute("CREATE TABLE item (a int)", within: .outsideRequest)
        try await connections.execute("INSERT INTO item VALUES (1)", within: .outsideRequest)
        func columns() async throws -> (statement: Int, text: Int) {
            let statement = try await connections.execute(Everything(), within: .outsideRequest)[0]
            let text = try await connections.query("SELECT * FROM item", within: .outsideRequest)[0].count
            return (statement, text)
        }
        #expect(try await columns() == (1, 1))
        // The migration: both cached plans no longer fit.
        try await connections.withConnection(within: .outsideRequest) { _ = try await $0.query("ALTER TABLE item ADD COLUMN b int") }
        await #expect { try await connections.execute(Everything(), within: .outsideRequest) } throws: { ($0 as? PostgresError)?.sqlState == "0A000" }
        await #expect { try await connections.query("SELECT * FROM item", within: .outsideRequest) } throws: {
            ($0 as? PostgresError)?.sqlState == "0A000"
        }
        #expect(try await columns() == (2, 2), "prepared again, under new names")
        // A pooler resets the session.
        try await connections.withConnection(within: .outsideRequest) { _ = try await $0.query("DISCARD ALL") }
        await #expect { try await connections.execute(Everything(), within: .outsideRequest) } throws: { ($0 as? PostgresError)?.sqlState == "26000" }
        await #expect { try await connections.query("SELECT * FROM item", within: .outsideRequest) } throws: {
            ($0 as? PostgresError)?.sqlState == "26000"
        }
        #expect(try await columns() == (2, 2), "prepared again")
        await connections.shutdown()
        await PostgresTestCluster.drop(url)
    }

    /// A task cancelled while its statement waits its turn stops waiting at once, with
    /// `CancellationError`, and its statement is never sent; so is a cancelled batch's.
    @Test func aCancelledTaskStopsWaitingAndItsStatementIsNeverSent() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let connections = PostgresConnections(
            url: url, size: 1, connectTimeout: .seconds(60), statementTimeout: .seconds(120),
            queueLimits: PostgresQueueLimits(window: 1, perConnection: 8, perLoop: 8), logger: PostgresTestCluster.logger)
        try await connections.execute("CREATE TABLE sent (x int)", within: .outsideRequest)
        let lock = try HeldLock(key: 60, in: url)
        try await connections.withConnection(within: .outsideRequest) { (lease: PostgresLease) async throws in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { _ = try await lease.query("SELECT pg_advisory_lock(60), pg_advisory_unlock(60)") }
                while try !lock.hasAWaiter() { try await Task.sleep(for: .milliseconds(5)) }
                // Behind the held statement: one insert, and a batch of two.
                // On the lease's loop, as every use of its connection must be.
                let loop = lease.connection.loop
                let single = Task(executorPreference: loop) { try await lease.query("INSERT INTO sent VALUES (1)") }
                struct Insert: PostgresPreparedStatement {
                    static let sql = "INSERT INTO sent VALUES ($1::integer)"
                    typealias Row = Void
                    var value: Int32
                    func makeBindings() throws -> PostgresBindings {
                        var bindings = PostgresBindings(capacity: 1)
                        bindings.append(value)
                        return bindings
                    }
                    func decodeRow(_ row: PostgresRow) throws {}
                }
                let batch = Task(executorPreference: loop) { try await lease.execute(all: [Insert(value: 2), Insert(value: 3)]) }
                while lease.connection.inFlight < 4 { try await Task.sleep(for: .milliseconds(5)) }
                single.cancel()
                batch.cancel()
                await #expect(throws: CancellationError.self) { try await single.value }
                await #expect(throws: CancellationError.self) { try await batch.value }
                try lock.release()
                try await group.waitForAll()
            }
        }
        #expect(
            try await connections.query("SELECT count(*) FROM sent", within: .outsideRequest)[0].decode(Int.self) == 0, "none of the three was sent")
        withExtendedLifetime(lock) {}
        await connections.shutdown()
        await PostgresTestCluster.drop(url)
    }

    /// A statement whose caller has gone, and nobody waits behind it on the wire: the server is
    /// asked to cancel it, so it stops running for nobody, and the connection goes on. (Without
    /// the request, the sleep runs its 60 s and the time limit fails the test.)
    @Test(.timeLimit(.minutes(1))) func aStatementNobodyWaitsForIsCancelledOnTheServer() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let connections = PostgresTestCluster.connections(url, size: 1)
        await #expect(throws: DatabaseUnavailable.self) {
            try await connections.query("SELECT pg_sleep(60)", within: .outsideRequest(patience: .milliseconds(200)))
        }
        let observer = try BlockingConnection(url: url, timeout: .seconds(30))
        func sleeping() throws -> Int {
            try observer.rows(
                "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(60)%' AND state = 'active' AND datname = current_database()"
            )[0].decode(Int.self)
        }
        while try sleeping() > 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(try await connections.query("SELECT 1", within: .outsideRequest)[0].decode(Int.self) == 1, "the connection goes on")
        withExtendedLifetime(observer) {}
        await connections.shutdown()
        await PostgresTestCluster.drop(url)
    }
}

/// An advisory lock held from a connection of the test's own, which a statement under test
/// waits on: the statement is on the wire, and the server busy with it, until `release()`.
private struct HeldLock {
    let key: Int
    private let connection: BlockingConnection

    init(key: Int, in url: PostgresURL) throws {
        self.key = key
        connection = try BlockingConnection(url: url, timeout: .seconds(30))
        _ = try connection.rows("SELECT pg_advisory_lock(\(key))")
    }

    /// Whether a statement of this database waits for the lock (other tests' databases take
    /// advisory locks in the same cluster).
    func hasAWaiter() throws -> Bool {
        try connection.rows(
            """
            SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = \(key) AND NOT granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """)[0].decode(Int.self) == 1
    }

    func release() throws {
        _ = try connection.rows("SELECT pg_advisory_unlock(\(key))")
    }
}
