import Foundation
import GRDB
import Testing
import TesseraTesting

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
        let bench = try ProcessHarness(product: "tessera-bench", environment: ["PORT": "0", "HOST": "127.0.0.1", "LOG_LEVEL": "notice", "DATA_DIR": data.path])
        let port = try await bench.waitForPort()
        let plaintext = try await onThread { try RawHTTPClient.request(port: port, "/plaintext") }
        #expect(plaintext.text == "Hello, World!")
        #expect(plaintext.header("content-type") == "text/plain; charset=utf-8")
        let built = try await onThread { try RawHTTPClient.request(port: port, "/plaintext-built") }
        #expect(built.text == "Hello, World!")
        let fortunes = try await onThread { try RawHTTPClient.request(port: port, "/fortunes") }
        #expect(fortunes.status == 200)
        #expect(fortunes.header("content-type") == "text/html; charset=utf-8")
        #expect(fortunes.text == Self.expectedFortunes)
        // The same page from SQLite, read on every request: a row added behind the server's
        // back shows at once.
        let fromDatabase = try await onThread { try RawHTTPClient.request(port: port, "/db-fortunes") }
        #expect(fromDatabase.status == 200)
        #expect(fromDatabase.text == Self.expectedFortunes)
        let database = try DatabaseQueue(path: data.appendingPathComponent("fortunes.sqlite").path)
        try await database.write { db in
            try db.execute(sql: "INSERT INTO fortune (id, message) VALUES (13, '<b>New</b> & improved')")
        }
        let changed = try await onThread { try RawHTTPClient.request(port: port, "/db-fortunes") }
        #expect(changed.text.contains("<tr><td>13</td><td>&lt;b&gt;New&lt;/b&gt; &amp; improved</td></tr>"))
        let regions = try await onThread { try RawHTTPClient.request(port: port, "/regions") }
        #expect(regions.text.components(separatedBy: "data-region=").count == 4)
        bench.signal(SIGTERM)
        #expect(try await bench.waitForExit() == 0)
    }
}
