import Foundation
import GRDB
import TesseraTesting
import Testing

/// `storefront seed`: the demo shop's photos, added once; `--products N`: a new data directory
/// with a large catalog, the same every time, that pages by keyset.
@Suite struct SeedTests {
    static func seed(_ arguments: [String], dataDirectory: URL) async throws -> (status: Int32, log: String) {
        let run = try ProcessHarness(product: "storefront", environment: ["DATA_DIR": dataDirectory.path], arguments: ["seed"] + arguments)
        return (try await run.waitForExit(timeout: .seconds(300)), run.log)
    }

    static func names(in folder: URL) throws -> [String] {
        let database = try DatabaseQueue(path: folder.appendingPathComponent("storefront.sqlite").path)
        return try database.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM product ORDER BY id")
        }
    }

    @Test func seedsALargeCatalogTheSameEveryTimeWithTheDemoAccountsAndOrders() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-seed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = root.appendingPathComponent("first"), second = root.appendingPathComponent("second")
        #expect(try await Self.seed(["--products", "2000"], dataDirectory: first).status == 0)
        #expect(try await Self.seed(["--products", "2000", "--data-dir", second.path], dataDirectory: root).status == 0)
        let names = try Self.names(in: first)
        #expect(names.count == 2000)
        #expect(names == (try Self.names(in: second)), "a fixed seed: the same catalog")
        #expect(names.prefix(2) == ["Arc Floor Lamp", "Brass Desk Lamp"], "the demo products first")
        #expect(Set(names).count > 300, "varied names")
        let counts = try DatabaseQueue(path: first.appendingPathComponent("storefront.sqlite").path)
        let (orders, users, staff, indexed) = try await counts.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM customerOrder") ?? 0,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user") ?? 0,
                try String.fetchOne(db, sql: "SELECT email FROM user WHERE isStaff") ?? "",
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM productSearch") ?? 0
            )
        }
        #expect(orders == 6 && users == 4, "the demo orders and accounts")
        #expect(staff == "sam@example.com", "one of them staff's")
        #expect(indexed == 2000, "every product is searchable")
        let photos = try FileManager.default.contentsOfDirectory(atPath: first.appendingPathComponent("photos").path)
        #expect(photos.count == 240, "six variants of each demo product's photo: \(photos.count)")

        // Plain `seed` on a seeded folder adds only what is missing: nothing.
        let topUp = try await Self.seed([], dataDirectory: first)
        #expect(topUp.status == 0 && topUp.log.contains(", 0 demo photos added"), "\(topUp.log)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: first.appendingPathComponent("photos").path).count == 240)

        // Again on the same folder, or too few products: refused with one line and exit 64.
        let again = try await Self.seed(["--products", "2000"], dataDirectory: first)
        #expect(again.status == 64 && again.log.contains("already has a database"), "\(again.log)")
        let few = try await Self.seed(["--products", "39"], dataDirectory: root.appendingPathComponent("third"))
        #expect(few.status == 64 && few.log.contains("--products 39"), "\(few.log)")
        let elsewhere = try await Self.seed(
            ["--products", "100", "--database-url", "postgres://nobody@127.0.0.1:1/x"], dataDirectory: root.appendingPathComponent("fourth"))
        #expect(elsewhere.status == 64 && elsewhere.log.contains("new SQLite data directory"), "\(elsewhere.log)")

        try await Self.pagesByKeyset(first)
    }

    /// 2,000 products: 167 pages, reached by keyset links, never by a deep offset.
    static func pagesByKeyset(_ root: URL) async throws {
        let server = try ProcessHarness(product: "storefront", environment: TestStorefront.environment(dataDirectory: root))
        let port = try await server.waitForPort()
        func get(_ target: String) async throws -> TestResponse { try await onThread { try RawHTTPClient.request(port: port, target) } }
        func link(_ reply: TestResponse, _ pattern: Regex<(Substring, Substring)>) throws -> String {
            String(try #require(reply.text.firstMatch(of: pattern)).1.replacing("&amp;", with: "&"))
        }
        func ids(_ reply: TestResponse) -> [String] { reply.text.matches(of: /data-product-id="(\d+)"/).map { String($0.1) } }

        let first = try await get("/")
        #expect(first.text.contains("Page 1 of 167"))
        let last = try await get(try link(first, /<a href="([^"]+)">Last<\/a>/))
        #expect(last.status == 200 && last.text.contains("Page 167 of 167") && ids(last).count == 2000 - 166 * 12)
        let beforeLast = try await get(try link(last, /<a rel="prev" href="([^"]+)">/))
        #expect(beforeLast.text.contains("Page 166 of 167") && ids(beforeLast).count == 12)
        let lastAgain = try await get(try link(beforeLast, /<a rel="next" href="([^"]+)">/))
        #expect(ids(lastAgain) == ids(last))
        // The last page's canonical URL is the same however it was reached, and it answers.
        let canonical = try #require(lastAgain.text.firstMatch(of: /<link rel="canonical" href="[^"]*?(\/\?[^"]*)">/)).1
        #expect(canonical == "/?page=last" && last.text.contains(String(canonical) + "\">"), "\(canonical)")
        #expect(try await get(String(canonical)).status == 200)
        #expect(try await get("/?page=80").status == 400, "a deep page is reached by links, not by an offset")
        let search = try await get("/?q=walnut")
        #expect(search.status == 200 && search.text.contains("Search results for “walnut”"))
        server.signal(SIGTERM)
        #expect(try await server.waitForExit() == 0)
    }
}
