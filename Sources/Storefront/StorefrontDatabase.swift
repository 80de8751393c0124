import Accounts
import Catalog
import Orders
import Foundation
import GRDB

/// The storefront's SQLite database in the data directory: WAL mode (GRDB's `DatabasePool`),
/// every module's versioned migrations, and the demo data on the first run.
enum StorefrontDatabase {
    static func open(dataDirectory: String) async throws -> DatabasePool {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        let database = try DatabasePool(path: URL(fileURLWithPath: dataDirectory).appendingPathComponent("storefront.sqlite").path)
        var migrator = DatabaseMigrator()
        SQLiteCatalogStore.registerMigrations(in: &migrator)
        SQLiteAccountsStore.registerMigrations(in: &migrator)
        SQLiteCartStore.registerMigrations(in: &migrator)
        try migrator.migrate(database)
        try await CatalogSeed.seedIfEmpty(database)
        try await AccountsSeed.seedIfEmpty(SQLiteAccountsStore(database: database))
        return database
    }
}
