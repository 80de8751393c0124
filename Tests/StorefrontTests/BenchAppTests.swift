import Foundation
import GRDB
import PostgresTestSupport
import Tessera
import TesseraPostgres
import TesseraTesting
import Testing

/// `tessera-bench` must serve exactly what the benchmark claims, or the numbers mean nothing.
@Suite struct BenchAppTests {
    /// The TechEmpower Fortunes page, built here from the rules, independently of the app.
    static var expectedFortunes: String {
        let rows: [(Int, String)] = [
            (1, "fortune: No such file or directory"),
            (2, "A computer scientist is someone who fixes things that aren't broken."),
            (3, "After enough decimal places, nobody gives a damn."),
            (4, "A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1"),
            (5, "A computer program does what you tell it to do, not what you want it to do."),
            (6, "Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen"),
            (7, "Any program that runs right is obsolete."),
            (8, "A list is only as strong as its weakest link. — Donald Knuth"),
            (9, "Feature: A bug with seniority."),
            (10, "Computers make very fast, very accurate mistakes."),
            (11, "<script>alert(\"This should not be displayed in a browser alert box.\");</script>"),
            (12, "フレームワークのベンチマーク"),
            (0, "Additional fortune added at request time."),
        ].sorted { $0.1.utf8.lexicographicallyPrecedes($1.1.utf8) }
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "'", with: "&#39;")
        }
        return "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>"
            + rows.map { "<tr><td>\($0.0)</td><td>\(escape($0.1))</td></tr>" }.joined()
            + "</table></body></html>"
    }

    @Test func servesPlaintextAndTheExactFortunesPage() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let bench = try ProcessHarness(
            product: "tessera-bench", environment: ["PORT": "0", "HOST": "127.0.0.1", "LOG_LEVEL": "notice", "DATA_DIR": data.path])
        let port = try await bench.waitForPort()
        let plaintext = try await onThread { try RawHTTPClient.request(port: port, "/plaintext") }
        #expect(plaintext.text == "Hello, World!")
        #expect(plaintext.header("content-type") == "text/plain; charset=utf-8")
        let built = try await onThread { try RawHTTPClient.request(port: port, "/plaintext-built") }
        #expect(built.text == "Hello, World!")
        let fortunes = try await onThread { try RawHTTPClient.request(port: port, "/memory-fortunes") }
        #expect(fortunes.status == 200)
        #expect(fortunes.header("content-type") == "text/html; charset=utf-8")
        #expect(fortunes.text == Self.expectedFortunes)
        // The same page from SQLite, read on every request: a row added behind the server's
        // back shows at once.
        let fromDatabase = try await onThread { try RawHTTPClient.request(port: port, "/sqlite-fortunes") }
        #expect(fromDatabase.status == 200)
        #expect(fromDatabase.text == Self.expectedFortunes)
        let database = try DatabaseQueue(path: data.appendingPathComponent("fortunes.sqlite").path)
        try await database.write { db in
            try db.execute(sql: "INSERT INTO fortune (id, message) VALUES (13, '<b>New</b> & improved')")
        }
        let changed = try await onThread { try RawHTTPClient.request(port: port, "/sqlite-fortunes") }
        #expect(changed.text.contains("<tr><td>13</td><td>&lt;b&gt;New&lt;/b&gt; &amp; improved</td></tr>"))
        let regions = try await onThread { try RawHTTPClient.request(port: port, "/regions") }
        #expect(regions.text.components(separatedBy: "data-region=").count == 4)
        // Without a database there are no database tests, rather than tests that fail.
        #expect(try await onThread { try RawHTTPClient.request(port: port, "/db") }.status == 404)
        bench.signal(SIGTERM)
        #expect(try await bench.waitForExit() == 0)
    }

    struct World: Decodable, Equatable {
        var id: Int
        var randomNumber: Int
    }

    /// TechEmpower's seven tests on PostgreSQL, by its rules, checked here independently of its
    /// verifier (which `make test` runs as well, scripts/techempower-test.sh): the bodies, the
    /// row counts for every edge of the parameters, updates that reach the table, and the
    /// `Server` field it requires.
    @Test func servesTechEmpowersSevenTestsOnPostgreSQL() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let databaseURL = try PostgresTestCluster.databaseURL(url.database)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let bench = try ProcessHarness(
            product: "tessera-bench",
            environment: [
                "PORT": "0", "HOST": "127.0.0.1", "LOG_LEVEL": "notice", "DATA_DIR": data.path, "DATABASE_URL": databaseURL,
            ])
        let port = try await bench.waitForPort()
        func get(_ target: String) async throws -> TestResponse {
            try await onThread { try RawHTTPClient.request(port: port, target) }
        }
        func worlds(_ target: String) async throws -> [World] {
            let response = try await get(target)
            #expect(response.status == 200 && response.header("content-type") == "application/json", "\(target)")
            return try JSONDecoder().decode([World].self, from: Data(response.body))
        }

        let json = try await get("/json")
        #expect(json.text == #"{"message":"Hello, World!"}"#)
        #expect(json.header("content-type") == "application/json")
        #expect(json.header("server") == "Tessera")
        #expect(try await get("/plaintext").header("server") == "Tessera")
        #expect(try await get("/no-such-page").header("server") == "Tessera")

        let single = try await get("/db")
        let world = try JSONDecoder().decode(World.self, from: Data(single.body))
        #expect((1...10_000).contains(world.id) && (1...10_000).contains(world.randomNumber))
        #expect(try JSONDecoder().decode([String: Int].self, from: Data(single.body)).keys.sorted() == ["id", "randomNumber"])

        for (parameter, count) in [("", 1), ("=", 1), ("=foo", 1), ("=0", 1), ("=-3", 1), ("=7", 7), ("=500", 500), ("=501", 500)] {
            #expect(try await worlds("/queries?queries" + parameter).count == count, "queries\(parameter)")
            #expect(try await worlds("/cached-queries?count" + parameter).count == count, "count\(parameter)")
        }
        #expect(try await get("/queries?queries=%ZZ").status == 400, "a malformed query is the client's error")

        // Updates reach the table: every row answered holds its new number in the database.
        let updated = try await worlds("/updates?queries=20")
        #expect(updated.count == 20)
        let pool = PostgresTestCluster.connections(url, size: 1)
        let stored = try await pool.read(within: .outsideRequest) { connection in
            try connection.rows("SELECT id, randomnumber FROM world WHERE id = ANY(\(updated.map { Int32($0.id) }))")
                .map { try $0.decode((Int32, Int32).self) }
        }
        let storedNumbers = Dictionary(uniqueKeysWithValues: stored.map { (Int($0.0), Int($0.1)) })
        for row in updated { #expect(storedNumbers[row.id] == row.randomNumber, "world \(row.id)") }
        #expect(try await worlds("/updates?queries=foo").count == 1)
        #expect(try await worlds("/updates?queries=501").count == 500)

        // Fortunes read on every request: a row added behind the server's back shows at once.
        let fortunes = try await get("/fortunes")
        #expect(fortunes.header("content-type") == "text/html; charset=utf-8")
        #expect(fortunes.text == Self.expectedFortunes)
        try await pool.write(within: .outsideRequest) { try $0.execute("INSERT INTO fortune (id, message) VALUES (13, '<b>New</b> & improved')") }
        #expect(try await get("/fortunes").text.contains("<tr><td>13</td><td>&lt;b&gt;New&lt;/b&gt; &amp; improved</td></tr>"))
        await pool.shutdown()

        bench.signal(SIGTERM)
        #expect(try await bench.waitForExit() == 0)
        await PostgresTestCluster.drop(url)
    }
}
