import Accounts
import Catalog
import Foundation
import GRDB
import Orders
import PostgresTestSupport
import Tessera
import TesseraMail
import TesseraMailSQLite
import TesseraPostgres
import TesseraSQLite
import Testing

@testable import Storefront

/// A new, empty, migrated shop database of one kind with the services on it, removed by
/// ``remove()``: SQLite in a temporary folder (WAL, as the server runs it), or a database of
/// its own in the throwaway PostgreSQL cluster that `make test` starts
/// (`scripts/with-postgres.sh`, which sets `TESSERA_POSTGRES_URL`).
final class ShopDatabase: Sendable {
    let kind: StoreKind
    let services: StorefrontServices
    /// What the services published.
    let topics: TopicLog
    private let sqlite: (pool: DatabasePool, folder: URL)?
    private let postgres: PostgresTestDatabase?

    static func make(_ kind: StoreKind) async throws -> ShopDatabase {
        switch kind {
        case .sqlite:
            let topics = TopicLog()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-shop-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let pool = try DatabasePool(path: folder.appendingPathComponent("shop.sqlite").path)
            var migrator = DatabaseMigrator()
            SQLiteCatalogStore.registerMigrations(in: &migrator)
            SQLiteAccountsStore.registerMigrations(in: &migrator)
            SQLiteCartStore.registerMigrations(in: &migrator)
            SQLiteOrderStore.registerMigrations(in: &migrator)
            SQLiteMailOutbox.registerMigrations(in: &migrator)
            try migrator.migrate(pool)
            return ShopDatabase(
                kind: kind, services: StorefrontServices(database: pool, topics: topics, hasher: .forTests), topics: topics, sqlite: (pool, folder),
                postgres: nil)
        case .postgres:
            let database = try await PostgresTestDatabase.make(migrator: StorefrontPostgres.migrator, poolSize: 8)
            let topics = TopicLog()
            return ShopDatabase(
                kind: kind, services: StorefrontServices(postgres: database.connections, topics: topics, hasher: .forTests), topics: topics,
                sqlite: nil, postgres: database)
        }
    }

    private init(
        kind: StoreKind, services: StorefrontServices, topics: TopicLog, sqlite: (pool: DatabasePool, folder: URL)?,
        postgres: PostgresTestDatabase?
    ) {
        self.kind = kind
        self.services = services
        self.topics = topics
        self.sqlite = sqlite
        self.postgres = postgres
    }

    /// The demo catalog.
    func seedCatalog() async throws {
        if let sqlite { try await CatalogSeed.seedIfEmpty(sqlite.pool) }
        if let postgres {
            try await PostgresCatalogStore(connections: postgres.connections, topics: topics).insertIfEmpty(
                CatalogSeed.products, categories: CatalogSeed.categories, within: .outsideRequest)
        }
    }

    /// Services on a second connection pool to the same database: another server instance.
    func anotherInstance() throws -> (services: StorefrontServices, close: @Sendable () async -> Void) {
        if let sqlite {
            let pool = try DatabasePool(path: sqlite.folder.appendingPathComponent("shop.sqlite").path)
            return (StorefrontServices(database: pool, topics: TopicLog(), hasher: .forTests), {})
        }
        let connections = PostgresTestCluster.connections(postgres!.url, size: 4)
        return (StorefrontServices(postgres: connections, topics: TopicLog(), hasher: .forTests), { await connections.shutdown() })
    }

    /// Password resets on this database that read the time from `clock`, as if it were later.
    func passwordResets(clock: @escaping @Sendable () -> Date) -> PasswordResetService {
        let store: any PasswordResetStore =
            if let sqlite { SQLitePasswordResetStore(database: sqlite.pool) } else { PostgresPasswordResetStore(connections: postgres!.connections) }
        return PasswordResetService(store: store, accounts: services.accounts, sender: .localShop, now: clock)
    }

    /// An order's status as the database has it right now, read on this thread outside any
    /// service: what a subscriber re-rendering at this moment would see.
    func committedStatus(of orderID: Int) throws -> String? {
        if let sqlite {
            return try sqlite.pool.read { db in try String.fetchOne(db, sql: "SELECT status FROM customerOrder WHERE id = ?", arguments: [orderID]) }
        }
        return try postgres!.rowsBlocking("SELECT status FROM customer_order WHERE id = \(orderID)").first?.decode(String.self)
    }

    /// The body the outbox keeps for the mail `messageID`, read behind the services' back.
    func outboxData(of messageID: String) throws -> String? {
        if let sqlite {
            return try sqlite.pool.read { db in
                try String.fetchOne(db, sql: "SELECT data FROM tessera_mail_outbox WHERE message_id = ?", arguments: [messageID])
            }
        }
        return try postgres!.rowsBlocking("SELECT data FROM tessera_mail_outbox WHERE message_id = \(messageID)").first?.decode(String.self)
    }

    /// Changes a product's price behind the services' back, as staff or another system would.
    func doublePrice(of productID: Int) async throws {
        if let sqlite {
            try await sqlite.pool.write { db in
                try db.execute(sql: "UPDATE product SET priceMinor = priceMinor * 2 WHERE id = ?", arguments: [productID])
            }
        }
        if let postgres {
            try await postgres.connections.write(within: .outsideRequest) {
                try $0.execute("UPDATE product SET price_minor = price_minor * 2 WHERE id = \(productID)")
            }
        }
    }

    func remove() async {
        if let sqlite { try? FileManager.default.removeItem(at: sqlite.folder) }
        await postgres?.remove()
    }
}

extension PasswordHasher {
    /// A thousand rounds, not 600,000: these tests are about shops, not about hashing's cost.
    static let forTests = PasswordHasher(rounds: 1_000)
}
