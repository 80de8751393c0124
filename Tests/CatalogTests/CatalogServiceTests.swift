import Catalog
import Foundation
import PostgresTestSupport
import Tessera
import Testing

/// The catalog's rules with the demo catalog, on each database the shop runs on (a conformance
/// suite for ``CatalogStore``): paging, sorting, search as plain text, and every bad listing
/// request as the client error it is.
@Suite struct CatalogServiceTests {
    @Test(arguments: StoreKind.allCases)
    func listingsArePagedAndSorted(_ kind: StoreKind) async throws {
        try await CatalogDatabase.with(kind) { catalog in
            let first = try await catalog.service.listing(category: nil, search: nil, sort: nil, page: nil, within: .outsideRequest)
            #expect(first.total == 40)
            #expect(first.products.count == CatalogService.pageSize)
            #expect(first.pageCount == 4)
            let names = first.products.map(\.name)
            #expect(names == names.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }, "by name by default")

            let last = try await catalog.service.listing(category: nil, search: nil, sort: "price-desc", page: "last", within: .outsideRequest)
            #expect(last.query.page == 4)
            #expect(last.products.count == 40 - 3 * CatalogService.pageSize)
            let all = try await catalog.service.listing(category: nil, search: nil, sort: "price", page: "1", within: .outsideRequest).products.map(
                \.priceMinor)
            #expect(all == all.sorted())

            let kitchen = try await catalog.service.listing(category: "kitchen", search: nil, sort: nil, page: nil, within: .outsideRequest)
            #expect(kitchen.total == 8)
            #expect(kitchen.category?.name == "Kitchen")
            #expect(kitchen.products.allSatisfy { $0.categoryID == 3 })
        }
    }

    @Test(arguments: StoreKind.allCases)
    func staffSetStockAndPriceAndPageThroughEveryProduct(_ kind: StoreKind) async throws {
        try await CatalogDatabase.with(kind) { catalog in
            let before = try await catalog.service.product(id: 2, within: .outsideRequest)
            let adjusted = try await catalog.service.adjust(
                productID: 2, stock: 0, priceMinor: 1999, expectedStock: before.stock, within: .outsideRequest)
            #expect((adjusted.stock, adjusted.priceMinor) == (0, 1999))
            let reread = try await catalog.service.product(id: 2, within: .outsideRequest)
            #expect((reread.stock, reread.priceMinor, reread.inStock) == (0, 1999, false))
            // A stale form (the stock moved since it was shown) overwrites nothing.
            await #expect(throws: CatalogError.self) {
                try await catalog.service.adjust(productID: 2, stock: 50, priceMinor: 100, expectedStock: before.stock, within: .outsideRequest)
            }
            #expect(try await catalog.service.product(id: 2, within: .outsideRequest).priceMinor == 1999)
            await #expect(throws: CatalogError.self) {
                try await catalog.service.adjust(productID: 9_999, stock: 1, priceMinor: 100, expectedStock: 0, within: .outsideRequest)
            }

            let first = try await catalog.service.productsByID(page: 1, within: .outsideRequest)
            #expect(first.products.map(\.id) == Array(1...20) && first.hasMore)
            let last = try await catalog.service.productsByID(page: 2, within: .outsideRequest)
            #expect(last.products.map(\.id) == Array(21...40) && !last.hasMore)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func searchIsPlainTextAndItsWildcardsAreJustCharacters(_ kind: StoreKind) async throws {
        try await CatalogDatabase.with(kind) { catalog in
            let lamps = try await catalog.service.listing(category: nil, search: "  lamp ", sort: nil, page: nil, within: .outsideRequest)
            #expect(lamps.query.search == "lamp", "trimmed")
            #expect(lamps.total == 3)
            #expect(lamps.products.allSatisfy { $0.name.lowercased().contains("lamp") || $0.summary.lowercased().contains("lamp") })
            for wildcard in ["%", "_", "\\", "' OR 1=1 --"] {
                let listing = try await catalog.service.listing(category: nil, search: wildcard, sort: nil, page: nil, within: .outsideRequest)
                #expect(listing.total == 0, "“\(wildcard)” matches literally, not everything")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func searchMatchesWordPrefixesAndItsSyntaxIsJustText(_ kind: StoreKind) async throws {
        try await CatalogDatabase.with(kind, Self.searchSyntaxIsJustText)
    }

    static func searchSyntaxIsJustText(in catalog: CatalogDatabase) async throws {
        let total = { (search: String) async throws -> Int in
            try await catalog.service.listing(category: nil, search: search, sort: nil, page: nil, within: .outsideRequest).total
        }
        #expect(try await total("lam") == 3, "a prefix")
        #expect(try await total("des lam") == 1, "every word, each a prefix: Brass Desk Lamp")
        #expect(try await total("LAMP") == 3, "case does not matter")
        // FTS5 and SQL syntax, alone and around a word: never an error, never more than the words.
        for text in ["\"", "*", "-", "'", "%", "(", ")", "^", ":", "\"\"", "{", "}", "\u{0}", "\"\u{0}"] {
            #expect(try await total(text) == 0, "“\(text)” alone matches nothing")
        }
        // Operators and column filters are words like any other: no error, and no special meaning.
        for text in ["NEAR", "AND", "OR", "NOT", "NOT lamp", "lamp OR desk", "name:lamp"] {
            #expect(try await total(text) == (try await total(text.lowercased())), "“\(text)” means what its words mean")
        }
        #expect(try await total("summary:lamp") == 0, "summary is a word, and no product has it")
        for text in ["lamp\u{0}", "\u{0}lamp\u{0}\"", "lamp\"", "\"lamp", "lamp*", "-lamp", "(lamp", "lamp)", "'lamp'", "%lamp%", "^lamp", "lamp:"] {
            #expect(try await total(text) >= 1, "“\(text)” is the word lamp, and its characters are text")
        }
        #expect(try await total("NEAR(lamp desk)") == 0, "NEAR is a word here, and no product has it")
        #expect(try await total("lamp OR desk") == 0, "OR is a word too: nothing has lamp, or and desk")
    }

    @Test(arguments: StoreKind.allCases)
    func searchResultsComeBestMatchFirstUnlessAskedOtherwise(_ kind: StoreKind) async throws {
        try await CatalogDatabase.with(kind) { catalog in
            try await catalog.insert(
                Product(id: 101, categoryID: 1, name: "Quokka Quokka Quokka", summary: "A quokka.", priceMinor: 100, stock: 1, imagePath: "/x.svg"))
            try await catalog.insert(
                Product(
                    id: 102, categoryID: 1, name: "Plain Thing", summary: "A small toy, shaped like a quokka among many other animals of the bush.",
                    priceMinor: 100, stock: 1, imagePath: "/x.svg"))
            let best = try await catalog.service.listing(category: nil, search: "quokka", sort: nil, page: nil, within: .outsideRequest)
            #expect(best.query.sort == .relevance)
            #expect(best.products.map(\.id) == [101, 102], "the name that is all quokka first")
            let byName = try await catalog.service.listing(category: nil, search: "quokka", sort: "name", page: nil, within: .outsideRequest)
            #expect(byName.products.map(\.id) == [102, 101])
            // Relevance means nothing without a search: by name.
            #expect(
                try await catalog.service.listing(category: nil, search: nil, sort: "relevance", page: nil, within: .outsideRequest).query.sort
                    == .name)
            // The index follows the table: a renamed product is found by its new name only.
            try await catalog.execute(
                sqlite: "UPDATE product SET name = 'Wombat' WHERE id = 101", postgres: "UPDATE product SET name = 'Wombat' WHERE id = 101")
            #expect(
                try await catalog.service.listing(category: nil, search: "wombat", sort: nil, page: nil, within: .outsideRequest).products.map(\.id)
                    == [101])
        }
    }

    /// Walking a listing by its keyset links, forwards from the first page and backwards from the
    /// last, gives every product once, in the sort's order, for every sort and with a category.
    @Test(arguments: StoreKind.allCases)
    func keysetPagesCoverTheListingInOrder(_ kind: StoreKind) async throws {
        try await CatalogDatabase.with(kind) { catalog in
            // Every demo summary says “collection”: a search that matches all 40.
            let cases: [(String, String?, String?)] = [
                ("name", nil, nil), ("price", nil, nil), ("price-desc", nil, nil), ("name", "kitchen", nil),
                ("price-desc", "lighting", nil), ("price", nil, "collection"), ("name", "kitchen", "collection"),
            ]
            for (sort, category, search) in cases {
                var forwards = try await catalog.service.listing(category: category, search: search, sort: sort, page: nil, within: .outsideRequest)
                var pages = [forwards.products]
                while forwards.query.page < forwards.pageCount {
                    let page = forwards.query.page + 1
                    forwards = try await catalog.service.listing(
                        category: category, search: search, sort: sort, page: "\(page)",
                        after: "\(forwards.products.last!.id)", within: .outsideRequest)
                    #expect(forwards.query.page == page)
                    pages.append(forwards.products)
                }
                var backwards = try await catalog.service.listing(
                    category: category, search: search, sort: sort, page: "last", within: .outsideRequest)
                var reversedPages = [backwards.products]
                while backwards.query.page > 1 {
                    let page = backwards.query.page - 1
                    backwards = try await catalog.service.listing(
                        category: category, search: search, sort: sort, page: page == 1 ? nil : "\(page)",
                        before: page == 1 ? nil : "\(backwards.products.first!.id)", within: .outsideRequest)
                    reversedPages.append(backwards.products)
                }
                let all = pages.flatMap { $0 }
                #expect(all.count == (search == nil || category != nil ? forwards.total : 40))
                #expect(all.count == forwards.total && Set(all.map(\.id)).count == all.count, "\(sort) \(category ?? "")")
                #expect(reversedPages.reversed().flatMap { $0 }.map(\.id) == all.map(\.id), "\(sort) \(category ?? "")")
                #expect(pages.dropLast().allSatisfy { $0.count == CatalogService.pageSize })
                let keys = all.map { sort == "name" ? $0.name.lowercased() : String(format: "%08d", $0.priceMinor) }
                #expect(keys == (sort == "price-desc" ? keys.sorted(by: >) : keys.sorted()), "\(sort) \(category ?? "")")
            }
        }
    }

    /// A search by relevance within a category ranks only that category's matches, and counts them.
    @Test(arguments: StoreKind.allCases)
    func searchByRelevanceWithinACategory(_ kind: StoreKind) async throws {
        try await CatalogDatabase.with(kind) { catalog in
            let kitchen = try await catalog.service.listing(category: "kitchen", search: "collection", sort: nil, page: nil, within: .outsideRequest)
            #expect(kitchen.query.sort == .relevance && kitchen.total == 8 && kitchen.products.count == 8)
            #expect(kitchen.products.allSatisfy { $0.categoryID == 3 })
            let everywhere = try await catalog.service.listing(category: nil, search: "collection", sort: nil, page: "last", within: .outsideRequest)
            #expect(everywhere.total == 40 && everywhere.query.page == 4 && everywhere.products.count == 4)
        }
    }

    /// The categories and their counts are kept between listings, and a write that adds a
    /// product or moves one drops them; a stock change does not need to.
    @Test(arguments: StoreKind.allCases)
    func listingCountsFollowWrites(_ kind: StoreKind) async throws {
        try await CatalogDatabase.with(kind) { catalog in
            #expect(try await catalog.service.listing(category: "kitchen", search: nil, sort: nil, page: nil, within: .outsideRequest).total == 8)
            try await catalog.insert(
                Product(
                    id: 41, categoryID: 3, name: "Zinc Colander", summary: "New.", priceMinor: 1500, stock: 4, imagePath: "/images/products/1.svg"))
            #expect(try await catalog.service.listing(category: "kitchen", search: nil, sort: nil, page: nil, within: .outsideRequest).total == 9)
            #expect(try await catalog.service.listing(category: nil, search: nil, sort: nil, page: nil, within: .outsideRequest).total == 41)
            try await catalog.execute(
                sqlite: "UPDATE product SET categoryID = 1 WHERE id = 41", postgres: "UPDATE product SET category_id = 1 WHERE id = 41")
            #expect(try await catalog.service.listing(category: "kitchen", search: nil, sort: nil, page: nil, within: .outsideRequest).total == 8)
            #expect(try await catalog.service.listing(category: "lighting", search: nil, sort: nil, page: nil, within: .outsideRequest).total == 9)
            // A transaction that rolls back changes nothing.
            try await catalog.executeThenRollBack(sqlite: "DELETE FROM product WHERE id = 41", postgres: "DELETE FROM product WHERE id = 41")
            #expect(try await catalog.service.listing(category: "lighting", search: nil, sort: nil, page: nil, within: .outsideRequest).total == 9)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func badListingRequestsAreClientErrorsWithTheirStatus(_ kind: StoreKind) async throws {
        try await CatalogDatabase.with(kind) { catalog in
            let cases:
                [(category: String?, search: String?, sort: String?, page: String?, after: String?, before: String?, status: HTTPResponse.Status)] = [
                    ("garden", nil, nil, nil, nil, nil, .notFound),
                    (nil, nil, "sideways", nil, nil, nil, .badRequest),
                    (nil, nil, nil, "0", nil, nil, .badRequest),
                    (nil, nil, nil, "abc", nil, nil, .badRequest),
                    (nil, "lamp", nil, "99", nil, nil, .notFound),
                    (nil, nil, nil, "3", nil, nil, .ok),
                    (nil, nil, nil, "4", nil, nil, .badRequest),  // past the pages an offset may reach
                    (nil, nil, nil, "2", "abc", nil, .badRequest),
                    (nil, nil, nil, "2", "0", nil, .badRequest),
                    (nil, nil, nil, "2", "3", "4", .badRequest),
                    (nil, nil, nil, nil, "3", nil, .badRequest),  // a cursor needs its page's number
                    (nil, "lamp", nil, "2", "3", nil, .badRequest),  // relevance pages by number
                    (nil, nil, nil, "2", "4000", nil, .notFound),  // no such product: the page is gone
                    (nil, nil, nil, "99", "3", nil, .ok),  // a cursor's page number is only a label
                    (nil, nil, nil, "50000", "3", nil, .ok),  // as deep as a catalog of a million products goes
                    (nil, nil, nil, "1000001", "3", nil, .badRequest),
                    (nil, "a\u{0}b", nil, nil, nil, nil, .ok),  // a NUL parts words, as a space does
                    (nil, String(repeating: "a", count: 101), nil, nil, nil, nil, .badRequest),
                ]
            for bad in cases {
                do {
                    _ = try await catalog.service.listing(
                        category: bad.category, search: bad.search, sort: bad.sort, page: bad.page,
                        after: bad.after, before: bad.before, within: .outsideRequest)
                    if bad.status == .ok { continue }
                    Issue.record("accepted \(bad)")
                } catch let error as CatalogError {
                    #expect(error.status == bad.status, "\(bad)")
                    #expect(!error.publicMessage.isEmpty)
                }
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func productsAreFoundOrAnsweredAs404AndAStorageFailureIsNotA404(_ kind: StoreKind) async throws {
        try await CatalogDatabase.with(kind) { catalog in
            #expect(try await catalog.service.product(id: 2, within: .outsideRequest).name == "Brass Desk Lamp")
            await #expect(throws: CatalogError.self) { try await catalog.service.product(id: 999, within: .outsideRequest) }
            #expect(try await catalog.service.existingProduct(id: 999, within: .outsideRequest) == nil)
            let related = try await catalog.service.related(
                to: try await catalog.service.product(id: 2, within: .outsideRequest), within: .outsideRequest)
            #expect(related.count == 4 && related.allSatisfy { $0.categoryID == 1 && $0.id != 2 })

            // A broken store is the server's fault (503), never "no such product".
            try await catalog.execute(sqlite: "DROP TABLE product", postgres: "DROP TABLE product CASCADE")
            do {
                _ = try await catalog.service.existingProduct(id: 2, within: .outsideRequest)
                Issue.record("a missing table was read as a missing product")
            } catch let error as CatalogError {
                #expect(error.status == .serviceUnavailable)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func stockReservationsAreConditionalAndReleaseGivesBack(_ kind: StoreKind) async throws {
        try await CatalogDatabase.with(kind) { catalog in
            let before = try await catalog.service.product(id: 1, within: .outsideRequest).stock
            let reserved = try await catalog.inTransaction { try $0.reserve(before, of: 1) }
            #expect(reserved.stock == before, "the product as it was when reserved")
            #expect(try await catalog.service.product(id: 1, within: .outsideRequest).stock == 0)
            await #expect(throws: StockShortage.insufficient(productName: "Arc Floor Lamp", available: 0)) {
                try await catalog.inTransaction { try $0.reserve(1, of: 1) }
            }
            await #expect(throws: StockShortage.unknownProduct(id: 999)) {
                try await catalog.inTransaction { try $0.reserve(1, of: 999) }
            }
            try await catalog.inTransaction { try $0.release(2, of: 1) }
            #expect(try await catalog.service.product(id: 1, within: .outsideRequest).stock == 2)
        }
    }

    /// The search rule: past ``SearchCandidates/limit`` matches a search lists the best-selling
    /// ones only, ranked among themselves, and says there are more; at or under the limit it
    /// lists and ranks every match.
    @Test(arguments: StoreKind.allCases)
    func aSearchWithMoreMatchesThanTheLimitListsItsBestSellers(_ kind: StoreKind) async throws {
        try await CatalogDatabase.with(kind) { catalog in
            let limit = SearchCandidates.limit
            // 1,050 gadgets; the higher the id, the better it sells. The 50 with the lowest ids
            // sell least: they are the ones left out.
            let gadgets = (0..<(limit + 50)).map { index in
                Product(
                    id: 1_000 + index, categoryID: 1 + index % 5, name: "Gadget \(index)", summary: "A gadget.",
                    priceMinor: 100 + index, stock: 5, imagePath: "/images/products/1.svg")
            }
            try await catalog.insert(gadgets) { $0.id }
            let listing = try await catalog.service.listing(category: nil, search: "gadget", sort: nil, page: nil, within: .outsideRequest)
            #expect(listing.total == limit && listing.matchesMore, "1,000+")
            #expect(listing.pageCount == (limit + CatalogService.pageSize - 1) / CatalogService.pageSize)
            // Sorted by price, the cheapest gadgets are the least-selling: left out, page 1 starts above them.
            let cheapest = try await catalog.service.listing(category: nil, search: "gadget", sort: "price", page: nil, within: .outsideRequest)
            #expect(cheapest.products.first?.id == 1_050, "the least-selling 50 are not candidates, in any sort")
            #expect(cheapest.total == limit)
            let relevance = try await catalog.service.listing(
                category: nil, search: "gadget", sort: nil, page: "\(listing.pageCount)", within: .outsideRequest)
            #expect(!relevance.products.isEmpty && relevance.products.allSatisfy { $0.id >= 1_050 })
            #expect(listing.products.allSatisfy { $0.id >= 1_050 })

            // Within one category there are 210 gadgets: under the limit, all of them, counted exactly.
            let lighting = try await catalog.service.listing(category: "lighting", search: "gadget", sort: nil, page: nil, within: .outsideRequest)
            #expect(lighting.total == (limit + 50) / 5 && !lighting.matchesMore)
        }
    }
}
