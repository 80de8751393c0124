import PostgresTestSupport
import Synchronization
import Tessera
import TesseraHTTP
import TesseraPostgres
import TesseraTesting
import Testing

/// A request and its statements on one event loop: a slow statement holds up no other request
/// on that loop, concurrent reads are on the wire at once, and every answer resumes its request
/// on the thread that read it.
@Suite struct ThreadPerCoreTests {
    static let slow = Route<NoParameters>("test.slow", .get, "/slow")
    static let quick = Route<NoParameters>("test.quick", .get, "/quick")
    static let together = Route<NoParameters>("test.together", .get, "/together")

    /// A server on one loop, with the pool's connections on that same loop.
    static func start(_ connections: PostgresConnections, loops: EventLoops) async throws -> TestServer {
        var app = ApplicationBuilder()
        app.routes.action(slow) { _, _ in
            // Waits in the database for as long as the test holds the lock.
            _ = try await connections.query("SELECT pg_advisory_lock(46), pg_advisory_unlock(46)", within: .outsideRequest)
            return .text("slept")
        }
        app.routes.action(quick) { _, _ in
            let loop = EventLoop.current
            let rows = try await connections.query("SELECT 1", within: .outsideRequest)
            return .text(EventLoop.current === loop && loop != nil ? "\(try rows[0].decode(Int.self))" : "moved")
        }
        app.routes.action(together) { _, _ in
            // Two reads from child tasks, as a page's regions make them: each waits in the
            // database until the other is running there, so they finish only if both are on
            // the wire at once. Bounded, so a failure is a clear error, not a hang.
            async let first = connections.query(Self.meeting(mine: "left", other: "right"), within: .outsideRequest)
            async let second = connections.query(Self.meeting(mine: "right", other: "left"), within: .outsideRequest)
            let met = try await (first, second)
            return .text("\(try met.0[0].decode(String.self)) \(try met.1[0].decode(String.self))")
        }
        let application = try app.build(middleware: [], routeMiddleware: [])
        return try await TestServer.start(threads: loops.loops.count, responder: application, errorResponder: application, eventLoops: loops)
    }

    /// A statement that runs until another `meet` is active in another session.
    static func meeting(mine: String, other: String) -> PostgresQuery {
        "SELECT meet(\(mine), \(other))"
    }

    /// `meet(mine, other)`: a rendezvous of two sessions, up to 10 s. Each shows itself as
    /// `meeting` in `pg_stat_activity` until it sees the other, then as `met`, and returns once
    /// the other is no longer waiting for it, so neither can miss the other between two looks.
    static let meetingFunction = PostgresQuery(
        unsafeSQL: """
            CREATE FUNCTION meet(mine text, other text) RETURNS text LANGUAGE plpgsql AS $$
            DECLARE seen boolean := false;
            BEGIN
              PERFORM set_config('application_name', 'meeting', true);
              FOR step IN 1..2000 LOOP
                PERFORM pg_stat_clear_snapshot();
                IF NOT seen AND EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid <> pg_backend_pid()
                                        AND application_name IN ('meeting', 'met')) THEN
                  seen := true;
                  PERFORM set_config('application_name', 'met', true);
                END IF;
                IF seen AND NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid <> pg_backend_pid()
                                        AND application_name = 'meeting') THEN
                  RETURN mine || ' met ' || other;
                END IF;
                PERFORM pg_sleep(0.005);
              END LOOP;
              RAISE EXCEPTION '% never met %', mine, other;
            END $$
            """)

    /// The statement waits in the database on a lock the test holds, for as long as the test
    /// takes: every quick request is answered meanwhile, on the same loop, so none waited for it.
    /// (How fast they answer beside it is measured in `make bench`, not here.)
    @Test func aSlowStatementHoldsUpNoOtherRequestOnItsLoop() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let loops = EventLoops(count: 1)
        let connections = PostgresConnections(url: url, size: 4, eventLoops: loops, logger: PostgresTestCluster.logger)
        let server = try await Self.start(connections, loops: loops)
        let lock = try BlockingConnection(url: url, timeout: .seconds(30))
        _ = try lock.rows("SELECT pg_advisory_lock(46)")
        let slowRequest = Task { try await TestClient(port: server.port).send("/slow").text }
        // The slow statement is in the database, waiting for the lock, before the others start.
        func waitingStatements() throws -> Int {
            // pg_locks is the cluster's: other tests' databases take advisory locks too.
            try lock.rows(
                """
                SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 46 AND NOT granted
                  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                """)[0].decode(Int.self)
        }
        while try waitingStatements() == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let client = TestClient(port: server.port)
        for _ in 0..<50 {
            #expect(try await client.send("/quick").text == "1", "answered, on the loop that read it")
        }
        #expect(try waitingStatements() == 1, "the slow statement still waited while all 50 were answered")
        _ = try lock.rows("SELECT pg_advisory_unlock(46)")
        #expect(try await slowRequest.value == "slept")
        withExtendedLifetime(lock) {}
        try await server.stop()
        await connections.shutdown()
        await loops.shutdown()
        await PostgresTestCluster.drop(url)
    }

    @Test func readsFromConcurrentChildTasksAreOnTheWireAtOnce() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let loops = EventLoops(count: 1)
        let connections = PostgresConnections(url: url, size: 4, eventLoops: loops, logger: PostgresTestCluster.logger)
        try await connections.execute(Self.meetingFunction, within: .outsideRequest)
        let server = try await Self.start(connections, loops: loops)
        let reply = try await TestClient(port: server.port).send("/together")
        #expect(reply.status == 200)
        #expect(reply.text == "left met right right met left", "\(reply.text)")
        try await server.stop()
        await connections.shutdown()
        await loops.shutdown()
        await PostgresTestCluster.drop(url)
    }
}
