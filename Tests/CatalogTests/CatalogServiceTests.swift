import Catalog
import Foundation
import GRDB
import Tessera
import Testing

/// The catalog's rules on a real SQLite database with the demo catalog: paging, sorting, search
/// as plain text, and every bad listing request as the client error it is.
@Suite struct CatalogServiceTests {
    /// A seeded catalog in a temporary folder.
    struct Catalog {
        let service: CatalogService
        let database: DatabasePool
        let folder: URL

        init() async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-catalog-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            database = try DatabasePool(path: folder.appendingPathComponent("catalog.sqlite").path)
            var migrator = DatabaseMigrator()
            SQLiteCatalogStore.registerMigrations(in: &migrator)
            try migrator.migrate(database)
            try await CatalogSeed.seedIfEmpty(database)
            service = CatalogService(store: SQLiteCatalogStore(database: database))
        }
    }

    @Test func listingsArePagedAndSorted() async throws {
        let catalog = try await Catalog()
        defer { try? FileManager.default.removeItem(at: catalog.folder) }
        let first = try await catalog.service.listing(category: nil, search: nil, sort: nil, page: nil)
        #expect(first.total == 40)
        #expect(first.products.count == CatalogService.pageSize)
        #expect(first.pageCount == 4)
        let names = first.products.map(\.name)
        #expect(names == names.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }, "by name by default")

        let last = try await catalog.service.listing(category: nil, search: nil, sort: "price-desc", page: "4")
        #expect(last.products.count == 40 - 3 * CatalogService.pageSize)
        let all = try await catalog.service.listing(category: nil, search: nil, sort: "price", page: "1").products.map(\.priceMinor)
        #expect(all == all.sorted())

        let kitchen = try await catalog.service.listing(category: "kitchen", search: nil, sort: nil, page: nil)
        #expect(kitchen.total == 8)
        #expect(kitchen.category?.name == "Kitchen")
        #expect(kitchen.products.allSatisfy { $0.categoryID == 3 })
    }

    @Test func searchIsPlainTextAndItsWildcardsAreJustCharacters() async throws {
        let catalog = try await Catalog()
        defer { try? FileManager.default.removeItem(at: catalog.folder) }
        let lamps = try await catalog.service.listing(category: nil, search: "  lamp ", sort: nil, page: nil)
        #expect(lamps.query.search == "lamp", "trimmed")
        #expect(lamps.total == 3)
        #expect(lamps.products.allSatisfy { $0.name.lowercased().contains("lamp") || $0.summary.lowercased().contains("lamp") })
        for wildcard in ["%", "_", "\\", "' OR 1=1 --"] {
            let listing = try await catalog.service.listing(category: nil, search: wildcard, sort: nil, page: nil)
            #expect(listing.total == 0, "“\(wildcard)” matches literally, not everything")
        }
    }

    @Test func searchMatchesWordPrefixesAndItsSyntaxIsJustText() async throws {
        let catalog = try await Catalog()
        defer { try? FileManager.default.removeItem(at: catalog.folder) }
        func total(_ search: String) async throws -> Int {
            try await catalog.service.listing(category: nil, search: search, sort: nil, page: nil).total
        }
        #expect(try await total("lam") == 3, "a prefix")
        #expect(try await total("des lam") == 1, "every word, each a prefix: Brass Desk Lamp")
        #expect(try await total("LAMP") == 3, "case does not matter")
        // FTS5 and SQL syntax, alone and around a word: never an error, never more than the words.
        for text in ["\"", "*", "-", "'", "%", "(", ")", "^", ":", "\"\"", "{", "}"] {
            #expect(try await total(text) == 0, "“\(text)” alone matches nothing")
        }
        // Operators and column filters are words like any other: no error, and no special meaning.
        for text in ["NEAR", "AND", "OR", "NOT", "NOT lamp", "lamp OR desk", "name:lamp"] {
            #expect(try await total(text) == (try await total(text.lowercased())), "“\(text)” means what its words mean")
        }
        #expect(try await total("summary:lamp") == 0, "summary is a word, and no product has it")
        for text in ["lamp\"", "\"lamp", "lamp*", "-lamp", "(lamp", "lamp)", "'lamp'", "%lamp%", "^lamp", "lamp:"] {
            #expect(try await total(text) >= 1, "“\(text)” is the word lamp, and its characters are text")
        }
        #expect(try await total("NEAR(lamp desk)") == 0, "NEAR is a word here, and no product has it")
        #expect(try await total("lamp OR desk") == 0, "OR is a word too: nothing has lamp, or and desk")
    }

    @Test func searchResultsComeBestMatchFirstUnlessAskedOtherwise() async throws {
        let catalog = try await Catalog()
        defer { try? FileManager.default.removeItem(at: catalog.folder) }
        try await catalog.database.write { db in
            try db.execute(sql: """
                INSERT INTO product (id, categoryID, name, summary, priceMinor, stock, imagePath)
                VALUES (101, 1, 'Quokka Quokka Quokka', 'A quokka.', 100, 1, '/x.svg'),
                       (102, 1, 'Plain Thing', 'A small toy, shaped like a quokka among many other animals of the bush.', 100, 1, '/x.svg')
                """)
        }
        let best = try await catalog.service.listing(category: nil, search: "quokka", sort: nil, page: nil)
        #expect(best.query.sort == .relevance)
        #expect(best.products.map(\.id) == [101, 102], "the name that is all quokka first")
        let byName = try await catalog.service.listing(category: nil, search: "quokka", sort: "name", page: nil)
        #expect(byName.products.map(\.id) == [102, 101])
        // Relevance means nothing without a search: by name.
        #expect(try await catalog.service.listing(category: nil, search: nil, sort: "relevance", page: nil).query.sort == .name)
        // The index follows the table: a renamed product is found by its new name only.
        try await catalog.database.write { db in try db.execute(sql: "UPDATE product SET name = 'Wombat' WHERE id = 101") }
        #expect(try await catalog.service.listing(category: nil, search: "wombat", sort: nil, page: nil).products.map(\.id) == [101])
    }

    @Test func badListingRequestsAreClientErrorsWithTheirStatus() async throws {
        let catalog = try await Catalog()
        defer { try? FileManager.default.removeItem(at: catalog.folder) }
        let cases: [(category: String?, search: String?, sort: String?, page: String?, status: HTTPResponse.Status)] = [
            ("garden", nil, nil, nil, .notFound),
            (nil, nil, "sideways", nil, .badRequest),
            (nil, nil, nil, "0", .badRequest),
            (nil, nil, nil, "abc", .badRequest),
            (nil, nil, nil, "99", .notFound),
            (nil, String(repeating: "a", count: 101), nil, nil, .badRequest),
        ]
        for bad in cases {
            do {
                _ = try await catalog.service.listing(category: bad.category, search: bad.search, sort: bad.sort, page: bad.page)
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.status == bad.status, "\(bad)")
                #expect(!error.publicMessage.isEmpty)
            }
        }
    }

    @Test func productsAreFoundOrAnsweredAs404AndAStorageFailureIsNotA404() async throws {
        let catalog = try await Catalog()
        defer { try? FileManager.default.removeItem(at: catalog.folder) }
        #expect(try await catalog.service.product(id: 2).name == "Brass Desk Lamp")
        await #expect(throws: CatalogError.self) { try await catalog.service.product(id: 999) }
        #expect(try await catalog.service.existingProduct(id: 999) == nil)
        let related = try await catalog.service.related(to: try await catalog.service.product(id: 2))
        #expect(related.count == 4 && related.allSatisfy { $0.categoryID == 1 && $0.id != 2 })

        // A broken store is the server's fault (503), never "no such product".
        try await catalog.database.write { db in try db.execute(sql: "DROP TABLE product") }
        do {
            _ = try await catalog.service.existingProduct(id: 2)
            Issue.record("a missing table was read as a missing product")
        } catch {
            #expect(error.status == .serviceUnavailable)
        }
    }

    @Test func stockReservationsAreConditionalAndReleaseGivesBack() async throws {
        let catalog = try await Catalog()
        defer { try? FileManager.default.removeItem(at: catalog.folder) }
        let before = try await catalog.service.product(id: 1).stock
        let reserved = try await catalog.database.write { db in
            try SQLiteCatalogStore.stockReservations(in: db).reserve(before, of: 1)
        }
        #expect(reserved.stock == before, "the product as it was when reserved")
        #expect(try await catalog.service.product(id: 1).stock == 0)
        await #expect(throws: StockShortage.insufficient(productName: "Arc Floor Lamp", available: 0)) {
            try await catalog.database.write { db in try SQLiteCatalogStore.stockReservations(in: db).reserve(1, of: 1) }
        }
        await #expect(throws: StockShortage.unknownProduct(id: 999)) {
            try await catalog.database.write { db in try SQLiteCatalogStore.stockReservations(in: db).reserve(1, of: 999) }
        }
        try await catalog.database.write { db in try SQLiteCatalogStore.stockReservations(in: db).release(2, of: 1) }
        #expect(try await catalog.service.product(id: 1).stock == 2)
    }
}
