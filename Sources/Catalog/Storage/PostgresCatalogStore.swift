public import Tessera
public import TesseraPostgres

/// The catalog in PostgreSQL: the same listings, search and stock rules as
/// ``SQLiteCatalogStore``, for shops that run several instances on one database.
///
/// Differences from SQLite, each a consequence of PostgreSQL's own tools:
/// - Search is a `tsvector` column (the `simple` configuration: no stemming, as FTS5's
///   `unicode61`), names weighted above summaries, and every word of the visitor's a required
///   prefix. Ranking is `ts_rank`, not FTS5's bm25: both put name matches first, but ties and
///   long summaries can order differently.
/// - Names sort by `lower(name)` in the byte order of collation "C", which matches SQLite's
///   `COLLATE NOCASE` for ASCII names.
/// - The categories and their counts are kept in memory as on SQLite (``CatalogSummaryCache``);
///   a commit that changes them is announced by triggers on the topic bus's channel
///   (``PostgresTopicBus/announcement(of:)``), and every instance drops its copy when it hears it.
///
/// Every read is one statement, awaited in the caller's task (``PostgresConnections/query(_:within:)``):
/// one round trip, and one snapshot without a transaction.
public struct PostgresCatalogStore: CatalogStore {
    let connections: PostgresConnections
    private let summaryCache: CatalogSummaryCache

    /// The catalog in the database behind `connections`, whose kept categories and counts hear
    /// their changes through `topics`.
    public init(connections: PostgresConnections, topics: any TopicPublisher) {
        self.connections = connections
        summaryCache = CatalogSummaryCache(topics: topics)
    }

    /// The catalog's tables, indexes and triggers, in the order they were added; the storefront runs them at start.
    public static func registerMigrations(in migrator: inout PostgresMigrator) {
        migrator.register(
            "catalog.v1",
            [
                "CREATE TABLE category (id bigint PRIMARY KEY, slug text NOT NULL UNIQUE, name text NOT NULL)",
                """
                CREATE TABLE product (
                    id bigint PRIMARY KEY,
                    category_id bigint NOT NULL REFERENCES category,
                    name text NOT NULL,
                    summary text NOT NULL,
                    price_minor bigint NOT NULL CHECK (price_minor >= 0),
                    stock bigint NOT NULL CHECK (stock >= 0),
                    image_path text NOT NULL,
                    search tsvector GENERATED ALWAYS AS
                        (setweight(to_tsvector('simple', name), 'A') || setweight(to_tsvector('simple', summary), 'B')) STORED
                )
                """,
                "CREATE INDEX product_search ON product USING gin (search)",
                "CREATE INDEX product_by_name ON product ((lower(name) COLLATE \"C\"), id)",
                "CREATE INDEX product_by_price ON product (price_minor, id)",
                "CREATE INDEX product_by_category_name ON product (category_id, (lower(name) COLLATE \"C\"), id)",
                "CREATE INDEX product_by_category_price ON product (category_id, price_minor, id)",
            ])
        migrator.register(
            "catalog.v2.summary-notifications",
            [
                """
                CREATE FUNCTION announce_catalog_summary_change() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_notify('tessera_catalog_summary', ''); RETURN NULL; END $$
                """,
                """
                CREATE TRIGGER product_summary_change AFTER INSERT OR DELETE OR UPDATE OF category_id ON product \
                FOR EACH STATEMENT EXECUTE FUNCTION announce_catalog_summary_change()
                """,
                """
                CREATE TRIGGER category_summary_change AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON category \
                FOR EACH STATEMENT EXECUTE FUNCTION announce_catalog_summary_change()
                """,
            ])
        // Search in the order of sales: a search with many matches lists its best-selling ones
        // (``SearchCandidates``), read through this index.
        migrator.register(
            "catalog.v3.units-sold",
            [
                "ALTER TABLE product ADD COLUMN units_sold bigint NOT NULL DEFAULT 0",
                "CREATE INDEX product_by_sales ON product (units_sold DESC, id)",
            ])
        // The summary's changes travel on the topic bus, as every cache's do, not on a channel
        // of their own: the same triggers, announcing the summary's topic to every instance.
        migrator.register(
            "catalog.v6.summary-on-the-bus",
            [
                """
                CREATE OR REPLACE FUNCTION announce_catalog_summary_change() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_notify('\(PostgresTopicBus.channel)', \(PostgresTopicBus.announcement(of: [CatalogSummaryCache.topic]))); RETURN NULL; END $$
                """
            ])
    }

    /// Nothing: PostgreSQL orders searches by sales as they happen.
    public func maintain() async {}

    /// Inserts `products` and `categories` into an empty catalog, in one transaction; a catalog
    /// that has categories is left alone.
    public func insertIfEmpty(_ products: [Product], categories: [Category], within budget: DatabaseBudget) async throws {
        try await connections.write(within: budget) { connection in
            guard try connection.rows("SELECT 1 FROM category LIMIT 1").isEmpty else { return }
            for category in categories {
                try connection.execute("INSERT INTO category (id, slug, name) VALUES (\(category.id), \(category.slug), \(category.name))")
            }
            for product in products {
                try connection.execute(
                    """
                    INSERT INTO product (id, category_id, name, summary, price_minor, stock, image_path) VALUES \
                    (\(product.id), \(product.categoryID), \(product.name), \(product.summary), \(product.priceMinor), \(product.stock), \(product.imagePath))
                    """)
            }
        }
        // The triggers announce it to every instance; this one hears it at once.
        summaryCache.publishChange()
    }

    static let productColumns =
        "product.id, product.category_id, product.name, product.summary, product.price_minor, product.stock, product.image_path"

    /// From memory, read again only after a commit changed them (``CatalogSummaryCache``).
    public func categories(within budget: DatabaseBudget) async throws -> [Category] {
        try await summary(within: budget).categories
    }

    /// From the same kept summary as ``categories(within:)``.
    public func productCount(within budget: DatabaseBudget) async throws -> Int {
        try await summary(within: budget).productCount
    }

    /// The categories and their counts, from memory unless a commit changed them since.
    private func summary(within budget: DatabaseBudget) async throws -> CatalogSummary {
        if let kept = summaryCache.kept { return kept }
        let generation = summaryCache.generation
        return try await summaryCache.summary(since: generation) {
            var categories: [Category] = []
            var counts: [Int: Int] = [:]
            let rows = try await connections.query(
                """
                SELECT id, slug, name, (SELECT count(*) FROM product WHERE category_id = category.id) FROM category ORDER BY name
                """, within: budget)
            for row in rows {
                let (id, slug, name, count) = try row.decode((Int, String, String, Int).self)
                categories.append(Category(id: id, slug: slug, name: name))
                counts[id] = count
            }
            return CatalogSummary(categories: categories, productCounts: counts, productCount: counts.values.reduce(0, +))
        }
    }

    /// By id, for the sitemap's parts; the offset and limit are integers the service computed.
    public func productIDs(offset: Int, limit: Int, within budget: DatabaseBudget) async throws -> [Int] {
        try await connections.query("SELECT id FROM product ORDER BY id LIMIT \(limit) OFFSET \(offset)", within: budget).map {
            try $0.decode(Int.self)
        }
    }

    /// One prepared statement, awaited in the request's task: one round trip.
    public func product(id: Int, within budget: DatabaseBudget) async throws -> Product? {
        try await connections.execute(ProductByID(id: id), within: budget).first
    }

    /// Every product page reads its product: prepared once per connection.
    struct ProductByID: PostgresPreparedStatement {
        static let sql = "SELECT \(productColumns) FROM product WHERE id = $1"
        typealias Row = Product
        let id: Int

        func makeBindings() throws -> PostgresBindings { PostgresBindings(id) }
        func decodeRow(_ row: PostgresRow) throws -> Product { try Product(postgresRow: row) }
    }

    /// One `UPDATE … WHERE stock = expected RETURNING`, so a stock that moved since staff read it is a conflict, not a lost change.
    public func setStockAndPrice(
        productID: Int, stock: Int, priceMinor: Int, expectedStock: Int, within budget: DatabaseBudget
    ) async throws -> ProductAdjustment {
        try await connections.write(within: budget) { connection in
            if let product = try Self.products(
                connection,
                PostgresQuery(
                    unsafeSQL: "UPDATE product SET stock = $2, price_minor = $3 WHERE id = $1 AND stock = $4 RETURNING \(Self.productColumns)",
                    binds: PostgresBindings(productID, stock, priceMinor, expectedStock))
            ).first {
                return .adjusted(product)
            }
            guard let current = try connection.rows("SELECT stock FROM product WHERE id = \(productID)").first?.decode(Int.self) else {
                return .noSuchProduct
            }
            return .stockMoved(to: current)
        }
    }

    /// One prepared statement, awaited in the request's task.
    public func related(to product: Product, limit: Int, within budget: DatabaseBudget) async throws -> [Product] {
        try await connections.execute(RelatedProducts(categoryID: product.categoryID, productID: product.id, limit: limit), within: budget)
    }

    /// Every product page reads its related products: prepared once per connection.
    struct RelatedProducts: PostgresPreparedStatement {
        static let sql = "SELECT \(productColumns) FROM product WHERE category_id = $1 AND id <> $2 ORDER BY id LIMIT $3"
        typealias Row = Product
        let categoryID: Int, productID: Int, limit: Int

        func makeBindings() throws -> PostgresBindings { PostgresBindings(categoryID, productID, limit) }
        func decodeRow(_ row: PostgresRow) throws -> Product { try Product(postgresRow: row) }
    }

    /// One statement: the page, and for a search how many match (a listing without one takes
    /// its count from the kept summary). A search's candidates are its best-selling matches,
    /// ``SearchCandidates/limit`` at most, which its page is taken from.
    public func products(
        matching query: ProductQuery, within budget: DatabaseBudget
    ) async throws -> (products: [Product], total: Int, matchesMore: Bool) {
        var filter = SQLFilter()
        let search = query.search.map(Self.searchableText) ?? ""
        if !search.isEmpty {
            filter.add("product.search @@ \(Self.prefixQuery)", search)
        }
        if let categoryID = query.categoryID {
            filter.add("product.category_id = $?", categoryID)
        }
        guard !search.isEmpty else {
            let total = try await summary(within: budget).count(in: query.categoryID)
            let page = Self.byKeyset(filter, query: query, total: total)
            let products = try await connections.query(page.query, within: budget).map(Product.init(postgresRow:))
            return (page.reversed ? products.reversed() : products, total, false)
        }
        // The candidates stand in for `product` in the page's statement; the count rides along on
        // every row, and a page past the end has no row to carry it, so the page is joined to the
        // count, not the other way round.
        let limit = SearchCandidates.limit
        let candidates = "(SELECT product.* FROM product\(filter.whereClause) ORDER BY product.units_sold DESC, product.id LIMIT \(limit)) AS product"
        let count = "SELECT count(*) FROM (SELECT 1 FROM product\(filter.whereClause) LIMIT \(limit + 1)) AS matches"
        var within = SQLFilter(binds: filter.binds)
        let page =
            query.sort == .relevance
            ? Self.byRelevance(search, &within, from: candidates, query: query)
            : Self.byKeyset(
                within, from: candidates, query: query,
                count: "SELECT least(count(*), \(limit)) FROM (SELECT 1 FROM product\(filter.whereClause) LIMIT \(limit)) AS matches")
        let rows = try await connections.query(
            PostgresQuery(
                unsafeSQL: "SELECT total.n, page.* FROM (\(count)) AS total (n) LEFT JOIN LATERAL (\(page.query.sql)) AS page ON true",
                binds: page.query.binds), within: budget)
        var counted = 0
        var products: [Product] = []
        for row in rows {
            let cells = row.makeRandomAccess()
            counted = try cells[0].decode(Int.self)
            if !cells[1].isNull { products.append(try Product(cells, from: 1)) }
        }
        return (page.reversed ? products.reversed() : products, min(counted, limit), counted > limit)
    }

    /// The visitor's text with control characters as spaces: they part words, as in the SQLite
    /// store, and PostgreSQL's text cannot hold a NUL at all.
    static func searchableText(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }

    /// The visitor's text as a query of required prefixes, built by PostgreSQL from the text's
    /// own lexemes, each quoted: whatever is typed (`&`, `|`, `!`, `:*`, quotes, parentheses)
    /// is only ever text. No word at all matches nothing.
    static let prefixQuery = """
        to_tsquery('simple', coalesce((SELECT string_agg(quote_literal(lexeme) || ':*', ' & ') \
        FROM unnest(to_tsvector('simple', $?))), ''))
        """

    /// A page of the candidates `source` by `ts_rank`, best first, at an offset: every
    /// candidate is ranked.
    private static func byRelevance(
        _ search: String, _ filter: inout SQLFilter, from source: String, query: ProductQuery
    ) -> (query: PostgresQuery, reversed: Bool) {
        let rank = filter.bind("ts_rank(product.search, \(prefixQuery))", search)
        let limit = filter.bind("$?", query.pageSize), offset = filter.bind("$?", (query.page - 1) * query.pageSize)
        return (
            PostgresQuery(
                unsafeSQL:
                    "SELECT \(productColumns) FROM \(source)\(filter.whereClause) ORDER BY \(rank) DESC, product.id LIMIT \(limit) OFFSET \(offset)",
                binds: filter.binds), false
        )
    }

    /// A page in a sort's order, read from its index, as ``SQLiteCatalogStore`` reads it: after
    /// or before a given product (a keyset), or at an offset for the first pages. The last page
    /// needs the listing's size: `total` when it is known, else `count`, a statement that counts
    /// it with the filter's own parameters.
    private static func byKeyset(
        _ filter: SQLFilter, from source: String = "product", query: ProductQuery, total: Int? = nil,
        count: String? = nil
    ) -> (query: PostgresQuery, reversed: Bool) {
        let (key, descending) =
            switch query.sort {
            case .relevance, .name: (["lower(product.name) COLLATE \"C\"", "product.id"], false)
            case .priceAscending: (["product.price_minor", "product.id"], false)
            case .priceDescending: (["product.price_minor", "product.id"], true)
            }
        var filter = filter
        var reversed = false
        var tail: String
        func boundary(_ productID: Int, forwards: Bool) {
            let comparison = forwards != descending ? ">" : "<"
            let row = key.joined(separator: ", ")
            let other = key.map { $0.replacing("product.", with: "boundary.") }.joined(separator: ", ")
            filter.add("(\(row)) \(comparison) (SELECT \(other) FROM product AS boundary WHERE boundary.id = $?)", productID)
        }
        switch query.start {
        case .offset:
            tail = " LIMIT " + filter.bind("$?", query.pageSize) + " OFFSET " + filter.bind("$?", (query.page - 1) * query.pageSize)
        case .after(let productID):
            boundary(productID, forwards: true)
            tail = " LIMIT " + filter.bind("$?", query.pageSize)
        case .before(let productID):
            boundary(productID, forwards: false)
            reversed = true
            tail = " LIMIT " + filter.bind("$?", query.pageSize)
        case .end:
            reversed = true
            if let total {
                tail = " LIMIT " + filter.bind("$?", max(0, total - (query.pageCount(forTotal: total) - 1) * query.pageSize))
            } else {
                // What is left after the full pages: 1 to a page's size, or 0 for nothing at all.
                let size = filter.bind("$?", query.pageSize)
                tail = " LIMIT (SELECT CASE WHEN n = 0 THEN 0 ELSE (n - 1) % \(size) + 1 END FROM (\(count ?? "SELECT 0")) AS total (n))"
            }
        }
        let backwards = descending != reversed
        let order = key.map { backwards ? $0 + " DESC" : $0 }.joined(separator: ", ")
        return (
            PostgresQuery(unsafeSQL: "SELECT \(productColumns) FROM \(source)\(filter.whereClause) ORDER BY \(order)" + tail, binds: filter.binds),
            reversed
        )
    }

    static func products(_ connection: BlockingConnection, _ query: PostgresQuery) throws -> [Product] {
        try connection.rows(query).map(Product.init(postgresRow:))
    }

    static func count(_ connection: BlockingConnection, _ query: PostgresQuery) throws -> Int {
        try connection.rows(query).first?.decode(Int.self) ?? 0
    }
}

/// Conditions and their bound values, numbered as they are added: `$?` in a fragment becomes
/// the next `$n`.
struct SQLFilter {
    private(set) var conditions: [String] = []
    private(set) var binds = PostgresBindings()

    init(binds: PostgresBindings = PostgresBindings()) {
        self.binds = binds
    }

    /// Adds a condition whose `$?` is `value`.
    mutating func add(_ condition: String, _ value: some PostgresEncodable) {
        conditions.append(bind(condition, value))
    }

    /// `fragment` with its `$?` numbered for `value`, which is bound.
    mutating func bind(_ fragment: String, _ value: some PostgresEncodable) -> String {
        binds.append(value)
        return fragment.replacing("$?", with: "$\(binds.count)")
    }

    var whereClause: String { conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ") }
}

extension PostgresCatalogStore {
    /// The catalog's stock moves on `connection`, inside a transaction the caller runs.
    public static func stockReservations(in connection: BlockingConnection) -> some StockReservations {
        PostgresStockReservations(connection: connection)
    }
}

/// Stock moves as conditional `UPDATE`s: under PostgreSQL's read committed, an update that
/// waited for another checkout's re-reads the row and checks the stock again.
struct PostgresStockReservations: StockReservations {
    let connection: BlockingConnection

    func reserve(_ quantity: Int, of productID: Int) throws -> Product {
        precondition(quantity > 0, "a reservation is for at least one item")
        let reserved = try PostgresCatalogStore.products(
            connection,
            """
            UPDATE product SET stock = stock - \(quantity), units_sold = units_sold + \(quantity) WHERE id = \(productID) AND stock >= \(quantity) \
            RETURNING id, category_id, name, summary, price_minor, stock + \(quantity), image_path
            """)
        if let product = reserved.first { return product }
        guard
            let product = try PostgresCatalogStore.products(
                connection,
                PostgresQuery(
                    unsafeSQL: "SELECT \(PostgresCatalogStore.productColumns) FROM product WHERE id = $1", binds: PostgresBindings(productID))
            ).first
        else { throw StockShortage.unknownProduct(id: productID) }
        throw StockShortage.insufficient(productName: product.name, available: product.stock)
    }

    func release(_ quantity: Int, of productID: Int) throws {
        try connection.execute(
            "UPDATE product SET stock = stock + \(quantity), units_sold = greatest(0, units_sold - \(quantity)) WHERE id = \(productID)")
    }
}

extension Product {
    /// The columns of ``PostgresCatalogStore/productColumns``, in order.
    init(postgresRow row: PostgresRow) throws {
        let (id, categoryID, name, summary, priceMinor, stock, imagePath) = try row.decode((Int, Int, String, String, Int, Int, String).self)
        self.init(id: id, categoryID: categoryID, name: name, summary: summary, priceMinor: priceMinor, stock: stock, imagePath: imagePath)
    }

    /// The columns of ``PostgresCatalogStore/productColumns``, in order from `first`.
    init(_ cells: PostgresRandomAccessRow, from first: Int) throws {
        self.init(
            id: try cells[first].decode(Int.self), categoryID: try cells[first + 1].decode(Int.self),
            name: try cells[first + 2].decode(String.self), summary: try cells[first + 3].decode(String.self),
            priceMinor: try cells[first + 4].decode(Int.self), stock: try cells[first + 5].decode(Int.self),
            imagePath: try cells[first + 6].decode(String.self))
    }
}
