import Accounts
import Catalog
import Foundation
import GRDB
import Orders
import Tessera
import TesseraMailSQLite
import TesseraSQLite

/// The storefront's SQLite database in the data directory: WAL mode (GRDB's `DatabasePool`),
/// every module's versioned migrations, and the demo data on the first run (the first demo user
/// gets an order in every status). The demo photos are the seed command's (``DemoPhotos``).
enum StorefrontDatabase {
    /// The database file in a data directory: what the server opens, `seed` creates and `backup`
    /// copies.
    static func file(in dataDirectory: String) -> URL {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("storefront.sqlite")
    }

    /// Where the photos' variants are kept: files beside the database, which names them.
    static func photoFolder(in dataDirectory: String) -> String {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("photos").path
    }

    /// - Parameters:
    ///   - lockWait: how long a write waits for another process's lock on the file.
    ///   - hasher: hashes the demo accounts' passwords.
    ///   - catalog: the products a new database starts with; by default the 40 of the demo
    ///     catalog. An existing catalog is never changed.
    /// Every module's migrations, in the order they were added.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        SQLiteCatalogStore.registerMigrations(in: &migrator)
        SQLitePhotoStore.registerMigrations(in: &migrator)
        SQLiteAccountsStore.registerMigrations(in: &migrator)
        SQLitePasskeyStore.registerMigrations(in: &migrator)
        SQLiteCartStore.registerMigrations(in: &migrator)
        SQLiteOrderStore.registerMigrations(in: &migrator)
        SQLiteMailOutbox.registerMigrations(in: &migrator)
        return migrator
    }

    /// Applies the migrations the database in `dataDirectory` lacks (making it if missing), and
    /// nothing else: no demo data. Returns their names.
    static func migrate(dataDirectory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        let database = try DatabaseQueue(path: file(in: dataDirectory).path)
        let migrator = self.migrator
        let before = try database.read { try migrator.appliedIdentifiers($0) }
        try migrator.migrate(database)
        try database.close()
        return migrator.migrations.filter { !before.contains($0) }
    }

    static func open(
        dataDirectory: String, lockWait: FileLockWait = FileLockWait(), hasher: PasswordHasher,
        catalog: [Product] = CatalogSeed.products
    ) async throws -> DatabasePool {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        var configuration = Configuration()
        // Another process holding the file's write lock (the sqlite3 shell, a backup) makes a
        // write wait, until its request's deadline, then fail as unavailable (a 503), not at
        // once as a 500.
        configuration.busyMode = lockWait.busyMode
        let database = try DatabasePool(path: file(in: dataDirectory).path, configuration: configuration)
        try migrator.migrate(database)
        try await CatalogSeed.insert(catalog, into: database)
        let accounts = SQLiteAccountsStore(database: database)
        try await AccountsSeed.seedIfEmpty(accounts, hasher: hasher)
        if let demoUser = try await accounts.user(email: AccountsSeed.users[0].email, within: .outsideRequest) {
            try await OrdersSeed.seedIfEmpty(
                StorefrontServices(database: database, topics: LiveRegions()).orders, userID: demoUser.id, shopperName: demoUser.name)
        }
        return database
    }
}
