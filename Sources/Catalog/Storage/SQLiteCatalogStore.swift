public import GRDB
public import Tessera
public import TesseraSQLite

/// The catalog in SQLite, through GRDB. Every value goes in as a bound argument, every statement
/// is prepared once per connection (GRDB's cached statements), and the categories with their
/// product counts are kept in memory until a write changes them (``CatalogSummaryCache``).
public struct SQLiteCatalogStore: CatalogStore {
    let database: any SQLiteDatabase
    private let summaryCache: CatalogSummaryCache

    /// The catalog in `database`, after its migrations ran; reads go to the pool's readers, writes
    /// to its writer. Commits that change the categories or their counts are published to `topics`.
    public init(database: any SQLiteDatabase, topics: any TopicPublisher) {
        self.database = database
        summaryCache = CatalogSummaryCache(topics: topics)
        database.writer.add(transactionObserver: summaryCache, extent: .databaseLifetime)
    }

    /// The catalog's tables, as versioned migrations the composition root runs with the others.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("catalog.v1") { db in
            try db.create(table: "category") { table in
                table.column("id", .integer).primaryKey()
                table.column("slug", .text).notNull().unique()
                table.column("name", .text).notNull()
            }
            try db.create(table: "product") { table in
                table.column("id", .integer).primaryKey()
                table.column("categoryID", .integer).notNull().references("category").indexed()
                table.column("name", .text).notNull()
                table.column("summary", .text).notNull()
                table.column("priceMinor", .integer).notNull().check { $0 >= 0 }
                table.column("stock", .integer).notNull().check { $0 >= 0 }
                table.column("imagePath", .text).notNull()
            }
        }
        // Full-text search over names and summaries, kept in step with `product` by triggers
        // (GRDB's `synchronize`), so every write to the catalog updates it in its transaction.
        migrator.registerMigration("catalog.v2.search") { db in
            try db.create(virtualTable: "productSearch", using: FTS5()) { table in
                table.synchronize(withTable: "product")
                table.tokenizer = .unicode61()
                table.column("name")
                table.column("summary")
            }
        }
        // The listing's orders as indexes, whole and per category, so that a page of a large
        // catalog reads its dozen rows in order instead of sorting every product.
        migrator.registerMigration("catalog.v3.listing-indexes") { db in
            try db.execute(
                sql: """
                    CREATE INDEX productByName ON product(name COLLATE NOCASE, id);
                    CREATE INDEX productByPrice ON product(priceMinor, id);
                    CREATE INDEX productByCategoryName ON product(categoryID, name COLLATE NOCASE, id);
                    CREATE INDEX productByCategoryPrice ON product(categoryID, priceMinor, id);
                    """)
        }
        // Search in the order of sales: the full-text index's rowid is the product's place in
        // that order (`searchRank`, 1 the best-selling), so a search reads its first matches,
        // the best-selling ones, and stops (see ``SearchCandidates``). Prefix indexes for
        // words of one to three characters make every word's prefix one lookup.
        migrator.registerMigration("catalog.v4.search-by-sales") { db in
            try db.execute(
                sql: """
                    ALTER TABLE product ADD COLUMN unitsSold INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE product ADD COLUMN searchRank INTEGER;
                    UPDATE product SET searchRank = ranked.place
                        FROM (SELECT id, row_number() OVER (ORDER BY unitsSold DESC, id) AS place FROM product) AS ranked WHERE ranked.id = product.id;
                    CREATE UNIQUE INDEX productBySearchRank ON product(searchRank);
                    DROP TRIGGER __productSearch_ai;
                    DROP TRIGGER __productSearch_ad;
                    DROP TRIGGER __productSearch_au;
                    DROP TABLE productSearch;
                    CREATE VIRTUAL TABLE productSearch USING fts5(name, summary, tokenize='unicode61', prefix='1 2 3', content='product', content_rowid='searchRank');
                    INSERT INTO productSearch(productSearch) VALUES ('rebuild');
                    \(Self.searchTriggers)
                    """)
        }
    }

    /// Keeps the full-text index in step with `product`, keyed by `searchRank`: a new product
    /// comes last in the order of sales, and a change of name, summary or place moves its entry.
    static let searchTriggers = """
        CREATE TRIGGER productSearchRankOnInsert AFTER INSERT ON product WHEN new.searchRank IS NULL BEGIN
            UPDATE product SET searchRank = (SELECT coalesce(max(searchRank), 0) + 1 FROM product) WHERE id = new.id;
        END;
        CREATE TRIGGER productSearchOnInsert AFTER INSERT ON product WHEN new.searchRank IS NOT NULL BEGIN
            INSERT INTO productSearch(rowid, name, summary) VALUES (new.searchRank, new.name, new.summary);
        END;
        CREATE TRIGGER productSearchOnRank AFTER UPDATE OF searchRank ON product WHEN old.searchRank IS NULL BEGIN
            INSERT INTO productSearch(rowid, name, summary) VALUES (new.searchRank, new.name, new.summary);
        END;
        CREATE TRIGGER productSearchOnChange AFTER UPDATE OF name, summary, searchRank ON product WHEN old.searchRank IS NOT NULL BEGIN
            INSERT INTO productSearch(productSearch, rowid, name, summary) VALUES ('delete', old.searchRank, old.name, old.summary);
            INSERT INTO productSearch(rowid, name, summary) VALUES (new.searchRank, new.name, new.summary);
        END;
        CREATE TRIGGER productSearchOnDelete AFTER DELETE ON product WHEN old.searchRank IS NOT NULL BEGIN
            INSERT INTO productSearch(productSearch, rowid, name, summary) VALUES ('delete', old.searchRank, old.name, old.summary);
        END;
        """

    /// Puts every product in its place in the order of sales again (best-selling first) and
    /// rebuilds the full-text index in that order, in one transaction; a catalog whose order
    /// has not changed is left alone. Sales move the order slowly, so this runs now and then
    /// (``followChanges()``), not with every sale: a rebuild of 100,000 products holds the
    /// writer for about a second and a half.
    public func reorderSearchBySales() async throws -> Bool {
        try await database.write(within: .outsideRequest) { db in
            let moved =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM (SELECT searchRank, row_number() OVER (ORDER BY unitsSold DESC, id) AS place FROM product) WHERE searchRank <> place
                        """) ?? 0
            guard moved > 0 else { return false }
            try db.execute(
                sql: """
                    DROP TRIGGER productSearchOnChange;
                    UPDATE product SET searchRank = -searchRank;
                    UPDATE product SET searchRank = ranked.place
                        FROM (SELECT id, row_number() OVER (ORDER BY unitsSold DESC, id) AS place FROM product) AS ranked WHERE ranked.id = product.id;
                    INSERT INTO productSearch(productSearch) VALUES ('rebuild');
                    CREATE TRIGGER productSearchOnChange AFTER UPDATE OF name, summary, searchRank ON product WHEN old.searchRank IS NOT NULL BEGIN
                        INSERT INTO productSearch(productSearch, rowid, name, summary) VALUES ('delete', old.searchRank, old.name, old.summary);
                        INSERT INTO productSearch(rowid, name, summary) VALUES (new.searchRank, new.name, new.summary);
                    END;
                    """)
            return true
        }
    }

    /// From memory once read, until a write in this process changes them.
    public func categories(within budget: DatabaseBudget) async throws -> [Category] {
        if let kept = summaryCache.kept { return kept.categories }
        let generation = summaryCache.generation
        return try await database.read(within: budget) { db in try summary(db, since: generation).categories }
    }

    /// From the same kept summary as ``categories(within:)``.
    public func productCount(within budget: DatabaseBudget) async throws -> Int {
        if let kept = summaryCache.kept { return kept.productCount }
        let generation = summaryCache.generation
        return try await database.read(within: budget) { db in try summary(db, since: generation).productCount }
    }

    /// At start and then every hour, puts the search order back in step with sales
    /// (``reorderSearchBySales()``).
    public func maintain() async {
        while !Task.isCancelled {
            _ = try? await reorderSearchBySales()
            try? await Task.sleep(for: .seconds(3600))
        }
    }

    /// By id, for the sitemap's parts.
    public func productIDs(offset: Int, limit: Int, within budget: DatabaseBudget) async throws -> [Int] {
        try await database.read(within: budget) { db in
            try Int.fetchAll(db.cachedStatement(sql: "SELECT id FROM product ORDER BY id LIMIT ? OFFSET ?"), arguments: [limit, offset])
        }
    }

    /// One cached statement outside a transaction (`unsafeRead`): a single read needs no snapshot.
    public func product(id: Int, within budget: DatabaseBudget) async throws -> Product? {
        try await database.unsafeRead(within: budget) { db in
            try Self.products(db.cachedStatement(sql: "SELECT \(Self.productColumns) FROM product WHERE id = ?"), [id]).first
        }
    }

    /// The columns ``products(_:_:)`` reads, by position.
    static let productColumns = "product.id, product.categoryID, product.name, product.summary, product.priceMinor, product.stock, product.imagePath"

    /// The products a statement selecting ``productColumns`` finds, read column by column: a
    /// listing reads a dozen for every request.
    static func products(_ statement: Statement, _ arguments: StatementArguments) throws -> [Product] {
        var products: [Product] = []
        try statement.forEachRow(arguments) { row in
            products.append(
                Product(
                    id: row.int(0), categoryID: row.int(1), name: row.string(2), summary: row.string(3),
                    priceMinor: row.int(4), stock: row.int(5), imagePath: row.string(6)))
        }
        return products
    }

    /// `UPDATE … WHERE stock = expected` in one write, so a stock that moved since staff read it is a conflict, not a lost change.
    public func setStockAndPrice(
        productID: Int, stock: Int, priceMinor: Int, expectedStock: Int, within budget: DatabaseBudget
    ) async throws -> ProductAdjustment {
        try await database.write(within: budget) { db in
            try db.execute(
                sql: "UPDATE product SET stock = ?, priceMinor = ? WHERE id = ? AND stock = ?",
                arguments: [stock, priceMinor, productID, expectedStock])
            let product = try Product.fetchOne(db, sql: "SELECT * FROM product WHERE id = ?", arguments: [productID])
            guard let product else { return .noSuchProduct }
            return db.changesCount == 1 ? .adjusted(product) : .stockMoved(to: product.stock)
        }
    }

    /// The page and its count; without a search the count comes from memory and the page is one statement.
    public func products(
        matching query: ProductQuery, within budget: DatabaseBudget
    ) async throws -> (products: [Product], total: Int, matchesMore: Bool) {
        // A listing whose count is kept in memory is one statement: no transaction needed.
        if query.search?.isEmpty ?? true, let kept = summaryCache.kept {
            let total = kept.count(in: query.categoryID)
            var conditions: [String] = []
            var arguments = StatementArguments()
            if let categoryID = query.categoryID {
                conditions.append("product.categoryID = ?")
                _ = arguments.append(contentsOf: [categoryID])
            }
            let page = Self.byKeyset(conditions, arguments, query: query, total: total)
            let products = try await database.unsafeRead(within: budget) { db in try Self.products(db.cachedStatement(sql: page.sql), page.arguments)
            }
            return (page.reversed ? products.reversed() : products, total, false)
        }
        // A search by relevance: one pass over its candidates ranks them and counts them (see
        // ``rankedCandidates(_:_:categoryID:)``); one statement, so no transaction either.
        if query.sort == .relevance, let search = query.search, !search.isEmpty {
            guard let pattern = Self.prefixQuery(search) else { return ([], 0, false) }
            return try await database.unsafeRead(within: budget) { db in
                let candidates = try Self.rankedCandidates(db, pattern, categoryID: query.categoryID)
                let start = min(candidates.places.count, (query.page - 1) * query.pageSize)
                let page = Array(candidates.places[start..<min(candidates.places.count, start + query.pageSize)])
                return (try Self.products(db, inSearchOrder: page), min(candidates.places.count, SearchCandidates.limit), candidates.matchesMore)
            }
        }
        let generation = summaryCache.generation
        return try await database.read(within: budget) { db in
            var pattern: String?
            if let search = query.search, !search.isEmpty {
                guard let words = Self.prefixQuery(search) else { return ([], 0, false) }
                pattern = words
            }
            var conditions: [String] = []
            var arguments = StatementArguments()
            var total: Int
            var matchesMore = false
            if let pattern {
                // The search's candidates: its first matches in the order of sales, which the
                // index reads in its own order and stops after (see ``SearchCandidates``).
                let inCategory = query.categoryID == nil ? "" : " AND rowid IN (SELECT searchRank FROM product WHERE categoryID = ?)"
                conditions.append(
                    "product.searchRank IN (SELECT rowid FROM productSearch WHERE productSearch MATCH ?\(inCategory) ORDER BY rowid LIMIT \(SearchCandidates.limit))"
                )
                _ = arguments.append(contentsOf: [pattern])
                if let categoryID = query.categoryID { _ = arguments.append(contentsOf: [categoryID]) }
                let counted =
                    try Int.fetchOne(
                        db.cachedStatement(
                            sql: """
                                SELECT count(*) FROM (SELECT rowid FROM productSearch WHERE productSearch MATCH ?\(inCategory) LIMIT \(SearchCandidates.limit + 1))
                                """), arguments: arguments) ?? 0
                total = min(counted, SearchCandidates.limit)
                matchesMore = counted > SearchCandidates.limit
            } else {
                if let categoryID = query.categoryID {
                    conditions.append("product.categoryID = ?")
                    _ = arguments.append(contentsOf: [categoryID])
                }
                total = try summary(db, since: generation).count(in: query.categoryID)
            }

            let page = Self.byKeyset(conditions, arguments, query: query, total: total)
            let products = try Self.products(db.cachedStatement(sql: page.sql), page.arguments)
            return (page.reversed ? products.reversed() : products, total, matchesMore)
        }
    }

    /// A search's candidates (its first ``SearchCandidates/limit`` matches in the order of
    /// sales), best match first by bm25, with their places in that order: read in one pass
    /// over the full-text index, which also says whether more matched (it reads one more).
    /// FTS5 ranks each candidate as it reads it; the sort happens here.
    static func rankedCandidates(_ db: Database, _ pattern: String, categoryID: Int?) throws -> (places: [Int], matchesMore: Bool) {
        let inCategory = categoryID == nil ? "" : " AND rowid IN (SELECT searchRank FROM product WHERE categoryID = ?)"
        var arguments: StatementArguments = [pattern]
        if let categoryID { _ = arguments.append(contentsOf: [categoryID]) }
        var scored: [(place: Int, score: Double)] = []
        try db.cachedStatement(
            sql: """
                SELECT rowid, bm25(productSearch) FROM productSearch WHERE productSearch MATCH ?\(inCategory) ORDER BY rowid LIMIT \(SearchCandidates.limit + 1)
                """
        ).forEachRow(arguments) { row in scored.append((row.int(0), row.double(1))) }
        let matchesMore = scored.count > SearchCandidates.limit
        if matchesMore { scored.removeLast() }
        // bm25 is lower for better matches; ties go by the order of sales.
        scored.sort { $0.score != $1.score ? $0.score < $1.score : $0.place < $1.place }
        return (scored.map(\.place), matchesMore)
    }

    /// The products at these places in the order of sales, in the order given.
    static func products(_ db: Database, inSearchOrder places: [Int]) throws -> [Product] {
        guard !places.isEmpty else { return [] }
        var found: [Int: Product] = [:]
        try db.cachedStatement(
            sql: """
                SELECT \(productColumns), product.searchRank FROM product WHERE product.searchRank IN (SELECT value FROM json_each(?))
                """
        ).forEachRow(["[" + places.map(String.init).joined(separator: ",") + "]"]) { row in
            found[row.int(7)] = Product(
                id: row.int(0), categoryID: row.int(1), name: row.string(2), summary: row.string(3),
                priceMinor: row.int(4), stock: row.int(5), imagePath: row.string(6))
        }
        return places.compactMap { found[$0] }
    }

    /// A page in a sort's order, read from its index. The order's key ends in the id, so it is
    /// total, and a page can start right after (or end right before) a given product: a keyset.
    /// The key's first column is also bounded on its own, which is what lets SQLite seek the
    /// index to the boundary instead of scanning up to it.
    private static func byKeyset(
        _ conditions: [String], _ arguments: StatementArguments, query: ProductQuery, total: Int
    ) -> (sql: String, arguments: StatementArguments, reversed: Bool) {
        let (key, descending) =
            switch query.sort {
            case .relevance, .name: (["product.name COLLATE NOCASE", "product.id"], false)
            case .priceAscending: (["product.priceMinor", "product.id"], false)
            case .priceDescending: (["product.priceMinor", "product.id"], true)
            }
        func order(descending: Bool) -> String { key.map { descending ? $0 + " DESC" : $0 }.joined(separator: ", ") }
        func boundary(_ productID: Int, forwards: Bool) -> (String, StatementArguments) {
            let (strict, loose) = forwards != descending ? (">", ">=") : ("<", "<=")
            let row = key.joined(separator: ", ")
            return (
                "\(key[0]) \(loose) (SELECT \(key[0]) FROM product WHERE product.id = ?) AND (\(row)) \(strict) (SELECT \(row) FROM product WHERE product.id = ?)",
                [productID, productID]
            )
        }
        var conditions = conditions, arguments = arguments
        var reversed = false
        var limit: StatementArguments = [query.pageSize]
        var offset = ""
        switch query.start {
        case .offset:
            limit = [query.pageSize, (query.page - 1) * query.pageSize]
            offset = " OFFSET ?"
        case .after(let productID):
            let (condition, values) = boundary(productID, forwards: true)
            conditions.append(condition)
            arguments += values
        case .before(let productID):
            let (condition, values) = boundary(productID, forwards: false)
            conditions.append(condition)
            arguments += values
            reversed = true
        case .end:
            limit = [max(0, total - (query.pageCount(forTotal: total) - 1) * query.pageSize)]
            reversed = true
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let sql = "SELECT \(productColumns) FROM product\(filter) ORDER BY \(order(descending: descending != reversed)) LIMIT ?" + offset
        return (sql, arguments + limit, reversed)
    }

    /// One cached statement outside a transaction, through the category index.
    public func related(to product: Product, limit: Int, within budget: DatabaseBudget) async throws -> [Product] {
        try await database.unsafeRead(within: budget) { db in
            try Self.products(
                db.cachedStatement(sql: "SELECT \(Self.productColumns) FROM product WHERE categoryID = ? AND id <> ? ORDER BY id LIMIT ?"),
                [product.categoryID, product.id, limit])
        }
    }

    /// The visitor's words as an FTS5 query in which nothing is syntax: each word (what lies
    /// between spaces or control characters) becomes an FTS5 string, quotes doubled, followed by `*`, so that every word
    /// is a required prefix and quotes, `*`, `NEAR`, `-`, `:` or parentheses are just text for the
    /// tokenizer. A word with no letter or digit matches nothing and is dropped; `nil` when none
    /// is left.
    ///
    /// GRDB's `FTS5Pattern(matchingAllPrefixesIn:)` does the same by tokenizing in a new
    /// in-memory database, which was two thirds of a search's time.
    static func prefixQuery(_ search: String) -> String? {
        // Control characters part words too: FTS5 ends a string at a NUL, which would leave the
        // quote open.
        let words = search.split { $0.isWhitespace || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }
            .filter { $0.contains { $0.isLetter || $0.isNumber } }
            .map { "\"" + $0.replacing("\"", with: "\"\"") + "\"*" }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// The categories and their counts, from memory unless a write changed them since;
    /// `generation` is the cache's, taken before this read began.
    private func summary(_ db: Database, since generation: TopicCache<Int, CatalogSummary>.Generation) throws -> CatalogSummary {
        try summaryCache.summary(since: generation) {
            var counts: [Int: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT categoryID, COUNT(*) FROM product GROUP BY categoryID") {
                counts[row[0]] = row[1]
            }
            return CatalogSummary(
                categories: try Category.order(Column("name")).fetchAll(db),
                productCounts: counts, productCount: counts.values.reduce(0, +))
        }
    }
}

extension SQLiteCatalogStore {
    /// The catalog's stock moves on `db`, inside a transaction the caller runs.
    public static func stockReservations(in db: Database) -> some StockReservations {
        SQLiteStockReservations(db: db)
    }
}

/// Stock moves as conditional `UPDATE`s on the transaction's connection.
struct SQLiteStockReservations: StockReservations {
    let db: Database

    func reserve(_ quantity: Int, of productID: Int) throws -> Product {
        precondition(quantity > 0, "a reservation is for at least one item")
        guard let product = try Product.fetchOne(db, key: productID) else { throw StockShortage.unknownProduct(id: productID) }
        try db.execute(
            sql: "UPDATE product SET stock = stock - ?, unitsSold = unitsSold + ? WHERE id = ? AND stock >= ?",
            arguments: [quantity, quantity, productID, quantity])
        guard db.changesCount == 1 else { throw StockShortage.insufficient(productName: product.name, available: product.stock) }
        return product
    }

    func release(_ quantity: Int, of productID: Int) throws {
        try db.execute(
            sql: "UPDATE product SET stock = stock + ?, unitsSold = max(0, unitsSold - ?) WHERE id = ?", arguments: [quantity, quantity, productID])
    }
}

extension Product: FetchableRecord, PersistableRecord, TableRecord {
    /// The table GRDB's record methods use.
    public static let databaseTableName = "product"

    /// Columns by name, not through `Decodable`: a listing decodes a dozen products per request,
    /// and GRDB's decoder cost more than reading them.
    public init(row: Row) throws {
        self.init(
            id: row["id"], categoryID: row["categoryID"], name: row["name"], summary: row["summary"],
            priceMinor: row["priceMinor"], stock: row["stock"], imagePath: row["imagePath"])
    }
}

extension Category: FetchableRecord, PersistableRecord, TableRecord {
    /// The table GRDB's record methods use.
    public static let databaseTableName = "category"
}
