import Catalog
import Foundation
import GRDB
import Logging
import PostgresTestSupport
import Tessera
import TesseraImages
import TesseraPostgres

/// A new catalog with the demo products on one kind of database, and the service on it; the
/// tests change it behind the service's back through the methods here, in each database's SQL.
final class CatalogDatabase: Sendable {
    let store: any CatalogStore
    let service: CatalogService
    /// Photos on the same database (the variants of SQLite's in its folder).
    let photos: PhotoService
    private let sqlite: (pool: DatabasePool, folder: URL)?
    private let postgres: PostgresTestDatabase?

    /// Runs `body` on a new seeded catalog of `kind`, removed afterwards.
    static func with(_ kind: StoreKind, _ body: (CatalogDatabase) async throws -> Void) async throws {
        let catalog = try await make(kind)
        do {
            try await body(catalog)
        } catch {
            await catalog.remove()
            throw error
        }
        await catalog.remove()
    }

    private static func make(_ kind: StoreKind) async throws -> CatalogDatabase {
        switch kind {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-catalog-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let pool = try DatabasePool(path: folder.appendingPathComponent("catalog.sqlite").path)
            var migrator = DatabaseMigrator()
            SQLiteCatalogStore.registerMigrations(in: &migrator)
            SQLitePhotoStore.registerMigrations(in: &migrator)
            try migrator.migrate(pool)
            try await CatalogSeed.seedIfEmpty(pool)
            let topics = LiveRegions()
            return CatalogDatabase(
                store: SQLiteCatalogStore(database: pool, topics: topics),
                photoStore: SQLitePhotoStore(database: pool, folder: folder.appendingPathComponent("photos").path),
                topics: topics, sqlite: (pool, folder), postgres: nil)
        case .postgres:
            var migrator = PostgresMigrator()
            PostgresCatalogStore.registerMigrations(in: &migrator)
            PostgresPhotoStore.registerMigrations(in: &migrator)
            let database = try await PostgresTestDatabase.make(migrator: migrator)
            // A bus that is not listening: the tests change rows behind the services' backs, and
            // nothing is kept while changes cannot be heard.
            let topics = LiveRegions(bus: PostgresTopicBus(connections: database.connections, logger: Logger(label: "test")))
            let store = PostgresCatalogStore(connections: database.connections, topics: topics)
            do {
                try await store.insertIfEmpty(CatalogSeed.products, categories: CatalogSeed.categories, within: .outsideRequest)
            } catch {
                await database.remove()
                throw error
            }
            return CatalogDatabase(
                store: store, photoStore: PostgresPhotoStore(connections: database.connections), topics: topics, sqlite: nil, postgres: database)
        }
    }

    private init(
        store: any CatalogStore, photoStore: any PhotoStore, topics: LiveRegions, sqlite: (pool: DatabasePool, folder: URL)?,
        postgres: PostgresTestDatabase?
    ) {
        self.store = store
        self.service = CatalogService(store: store, topics: topics)
        self.photos = PhotoService(store: photoStore, catalog: service, topics: topics)
        self.sqlite = sqlite
        self.postgres = postgres
    }

    /// The PostgreSQL database's address, for another instance's connections; `nil` on SQLite.
    var postgresURL: PostgresURL? { postgres?.url }

    func insert(_ product: Product) async throws {
        if let sqlite { try await sqlite.pool.write { db in try product.insert(db) } }
        if let postgres {
            try await postgres.connections.write(within: .outsideRequest) { connection in
                try connection.execute(
                    """
                    INSERT INTO product (id, category_id, name, summary, price_minor, stock, image_path) VALUES \
                    (\(product.id), \(product.categoryID), \(product.name), \(product.summary), \(product.priceMinor), \(product.stock), \(product.imagePath))
                    """)
            }
        }
    }

    /// Inserts `count` products from id `firstID` on, in one transaction, each selling as
    /// `unitsSold` says; then brings the search order in step with sales, as the running shop
    /// does (on SQLite, ``SQLiteCatalogStore/reorderSearchBySales()``; PostgreSQL's is current).
    func insert(_ products: [Product], unitsSold: @escaping @Sendable (Product) -> Int) async throws {
        if let sqlite {
            try await sqlite.pool.write { db in
                for product in products {
                    try product.insert(db)
                    try db.execute(sql: "UPDATE product SET unitsSold = ? WHERE id = ?", arguments: [unitsSold(product), product.id])
                }
            }
            _ = try await (store as! SQLiteCatalogStore).reorderSearchBySales()
        }
        if let postgres {
            try await postgres.connections.write(within: .outsideRequest) { connection in
                for product in products {
                    try connection.execute(
                        """
                        INSERT INTO product (id, category_id, name, summary, price_minor, stock, image_path, units_sold) VALUES \
                        (\(product.id), \(product.categoryID), \(product.name), \(product.summary), \(product.priceMinor), \(product.stock), \
                        \(product.imagePath), \(unitsSold(product)))
                        """)
                }
            }
        }
    }

    /// Runs the statement for this kind of database.
    func execute(sqlite sqliteStatement: String, postgres postgresStatement: String) async throws {
        if let sqlite { try await sqlite.pool.write { db in try db.execute(sql: sqliteStatement) } }
        if let postgres {
            try await postgres.connections.write(within: .outsideRequest) { try $0.execute(PostgresQuery(unsafeSQL: postgresStatement)) }
        }
    }

    /// Runs the statement in a transaction that then rolls back.
    func executeThenRollBack(sqlite sqliteStatement: String, postgres postgresStatement: String) async throws {
        struct RollBack: Error {}
        do {
            if let sqlite {
                try await sqlite.pool.write { db in
                    try db.execute(sql: sqliteStatement)
                    throw RollBack()
                }
            }
            if let postgres {
                try await postgres.connections.write(within: .outsideRequest) {
                    try $0.execute(PostgresQuery(unsafeSQL: postgresStatement))
                    throw RollBack()
                }
            }
        } catch is RollBack {}
    }

    /// Runs `body` with the catalog's stock reservations inside one transaction.
    func inTransaction<T: Sendable>(_ body: @escaping @Sendable (any StockReservations) throws -> T) async throws -> T {
        if let sqlite { return try await sqlite.pool.write { db in try body(SQLiteCatalogStore.stockReservations(in: db)) } }
        return try await postgres!.connections.write(within: .outsideRequest) { connection in
            try body(PostgresCatalogStore.stockReservations(in: connection))
        }
    }

    private func remove() async {
        if let sqlite { try? FileManager.default.removeItem(at: sqlite.folder) }
        await postgres?.remove()
    }
}
