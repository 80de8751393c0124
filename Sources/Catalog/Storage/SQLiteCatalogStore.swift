import GRDB

/// The catalog in SQLite, through GRDB. Every value goes in as a bound argument.
public struct SQLiteCatalogStore: CatalogStore {
    let database: any DatabaseWriter

    public init(database: any DatabaseWriter) {
        self.database = database
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
            try db.execute(sql: """
                CREATE INDEX productByName ON product(name COLLATE NOCASE, id);
                CREATE INDEX productByPrice ON product(priceMinor, id);
                CREATE INDEX productByCategoryName ON product(categoryID, name COLLATE NOCASE, id);
                CREATE INDEX productByCategoryPrice ON product(categoryID, priceMinor, id);
                """)
        }
    }

    public func categories() async throws -> [Category] {
        try await database.read { db in try Category.order(Column("name")).fetchAll(db) }
    }

    public func productIDs() async throws -> [Int] {
        try await database.read { db in try Int.fetchAll(db, sql: "SELECT id FROM product ORDER BY id") }
    }

    public func product(id: Int) async throws -> Product? {
        try await database.read { db in try Product.fetchOne(db, key: id) }
    }

    public func products(matching query: ProductQuery) async throws -> (products: [Product], total: Int) {
        try await database.read { db in
            var joins = ""
            var conditions: [String] = []
            var arguments = StatementArguments()
            if let search = query.search, !search.isEmpty {
                // The visitor's words as FTS5 prefixes, tokenized by SQLite itself: quotes, `*`,
                // `NEAR`, `-` or parentheses are just text. Nothing left to match: no results.
                guard let pattern = FTS5Pattern(matchingAllPrefixesIn: search) else { return ([], 0) }
                joins = "JOIN productSearch ON productSearch.rowid = product.id"
                conditions.append("productSearch MATCH ?")
                _ = arguments.append(contentsOf: [pattern])
            }
            if let categoryID = query.categoryID {
                conditions.append("product.categoryID = ?")
                _ = arguments.append(contentsOf: [categoryID])
            }
            let filter = "FROM product \(joins)" + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) \(filter)", arguments: arguments) ?? 0
            let order = switch query.sort {
            case .relevance where !joins.isEmpty: "productSearch.rank, product.id"
            case .relevance, .name: "product.name COLLATE NOCASE, product.id"
            case .priceAscending: "product.priceMinor, product.id"
            case .priceDescending: "product.priceMinor DESC, product.id"
            }
            let page: StatementArguments = [query.pageSize, (query.page - 1) * query.pageSize]
            let products = try Product.fetchAll(db, sql: "SELECT product.* \(filter) ORDER BY \(order) LIMIT ? OFFSET ?", arguments: arguments + page)
            return (products, total)
        }
    }

    public func related(to product: Product, limit: Int) async throws -> [Product] {
        try await database.read { db in
            try Product.filter(Column("categoryID") == product.categoryID && Column("id") != product.id)
                .order(Column("id")).limit(limit).fetchAll(db)
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
        try db.execute(sql: "UPDATE product SET stock = stock - ? WHERE id = ? AND stock >= ?", arguments: [quantity, productID, quantity])
        guard db.changesCount == 1 else { throw StockShortage.insufficient(productName: product.name, available: product.stock) }
        return product
    }

    func release(_ quantity: Int, of productID: Int) throws {
        try db.execute(sql: "UPDATE product SET stock = stock + ? WHERE id = ?", arguments: [quantity, productID])
    }
}

extension Product: FetchableRecord, PersistableRecord, TableRecord {
    public static let databaseTableName = "product"
}

extension Category: FetchableRecord, PersistableRecord, TableRecord {
    public static let databaseTableName = "category"
}
