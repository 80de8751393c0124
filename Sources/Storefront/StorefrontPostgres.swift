import Accounts
import Catalog
import Logging
import Orders
import Tessera
import TesseraMailPostgres
import TesseraPostgres

/// The storefront's PostgreSQL database: every module's versioned migrations (several instances
/// may start together: ``PostgresMigrator`` takes turns), and the demo data when the catalog is
/// empty, as ``StorefrontDatabase`` does for SQLite.
enum StorefrontPostgres {
    static var migrator: PostgresMigrator {
        var migrator = PostgresMigrator()
        PostgresCatalogStore.registerMigrations(in: &migrator)
        PostgresPhotoStore.registerMigrations(in: &migrator)
        PostgresAccountsStore.registerMigrations(in: &migrator)
        PostgresPasskeyStore.registerMigrations(in: &migrator)
        PostgresCartStore.registerMigrations(in: &migrator)
        PostgresOrderStore.registerMigrations(in: &migrator)
        PostgresMailOutbox.registerMigrations(in: &migrator)
        PostgresRateLimitStore.registerMigrations(in: &migrator)
        return migrator
    }

    /// Migrates the database and seeds an empty one with `catalog` (by default the 40 demo
    /// products), the demo accounts and the first demo user's orders. Instances that start
    /// together take turns (an advisory lock), so the demo data is seeded once. The demo
    /// passwords are hashed with `hasher`.
    static func prepare(_ connections: PostgresConnections, hasher: PasswordHasher, catalog: [Product] = CatalogSeed.products) async throws {
        try await connections.withAdvisoryLock(seedLock) {
            try await migrator.migrate(connections)
            try await seed(connections, hasher: hasher, catalog: catalog)
        }
    }

    /// ``prepare(_:hasher:catalog:)``, then a demo photo for each demo product that has none, under a
    /// lock of its own: seeds run at once on several machines add each photo once, and an
    /// instance that starts meanwhile does not wait for the painting. Returns how many it added.
    static func seedDemoShop(_ connections: PostgresConnections, hasher: PasswordHasher) async throws -> Int {
        try await prepare(connections, hasher: hasher)
        return try await connections.withAdvisoryLock(photoLock, waitingAtMost: photoPatience) {
            try await DemoPhotos.add(
                to: CatalogSeed.products.map(\.id),
                through: StorefrontServices(postgres: connections, topics: LiveRegions()).photos)
        }
    }

    /// Runs a command's work (`to` says which: seed, migrate) on a small pool of its own on
    /// `DATABASE_URL`, closed afterwards; a URL it cannot read or a database it cannot use is
    /// ``UnavailableAtStart`` (exit 69), in one line that names it.
    static func forCommand<T: Sendable>(
        _ text: String, to command: String, statementTimeout: Duration = .seconds(15),
        _ work: (PostgresConnections) async throws -> T
    ) async throws -> T {
        try await UnavailableAtStart.reported {
            let url: PostgresURL
            do {
                url = try PostgresURL(text)
            } catch {
                throw UnavailableAtStart(message: "\(error)")
            }
            let connections = PostgresConnections(url: url, size: 2, statementTimeout: statementTimeout, logger: Logger(label: command))
            do {
                let result = try await work(connections)
                await connections.shutdown()
                return result
            } catch {
                await connections.shutdown()
                throw UnavailableAtStart(message: "cannot \(command) the database at \(url): \(DatabaseUnavailable(error).reason)")
            }
        }
    }

    /// The advisory lock instances take to prepare the database.
    static let seedLock: Int64 = 0x7365_6564  // "seed"
    /// The advisory lock seeds take to add the demo photos.
    static let photoLock: Int64 = 0x7068_6f74  // "phot"
    /// How long a seed waits for another seed's photos: painting and encoding 240 variants takes
    /// tens of seconds, and minutes on a busy machine; a seed that dies frees the lock at once.
    static let photoPatience: Duration = .seconds(30 * 60)

    private static func seed(_ connections: PostgresConnections, hasher: PasswordHasher, catalog: [Product]) async throws {
        try await PostgresCatalogStore(connections: connections, topics: LiveRegions()).insertIfEmpty(
            catalog, categories: CatalogSeed.categories, within: .outsideRequest)
        let accounts = PostgresAccountsStore(connections: connections)
        try await AccountsSeed.seedIfEmpty(accounts, hasher: hasher)
        if let demoUser = try await accounts.user(email: AccountsSeed.users[0].email, within: .outsideRequest) {
            try await OrdersSeed.seedIfEmpty(
                StorefrontServices(postgres: connections, topics: LiveRegions()).orders, userID: demoUser.id, shopperName: demoUser.name)
        }
    }
}
