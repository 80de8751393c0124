import Accounts
import Catalog
import Foundation
import GRDB
import Orders
import Tessera
import TesseraImages
import TesseraMail
import TesseraMailPostgres
import TesseraMailSQLite
import TesseraPasskeys
import TesseraPostgres
import TesseraSQLite

/// Every service of the shop, wired to one database's stores and to the transaction that order
/// changes share. The database is chosen here and nowhere else: SQLite in the data directory,
/// or PostgreSQL when `DATABASE_URL` names one. Changes are published to `topics`, the app's
/// live regions. With a `mailSender`, checkout queues the buyer's confirmation in the database's
/// `mailOutbox`; reset links are queued there always (from `shop@localhost` without one);
/// passkeys belong to `relyingParty`.
struct StorefrontServices {
    let catalog: CatalogService
    let accounts: AccountsService
    let cart: CartService
    let orders: OrderService
    let passkeys: PasskeyService
    let passwordResets: PasswordResetService
    let photos: PhotoService
    let mailOutbox: any MailOutbox
    /// Where the rate limits and the sign-in throttle count: this process's memory on SQLite,
    /// the database on PostgreSQL, so that every instance shares one count.
    let rateLimits: any RateLimitStore

    /// - Parameter photoFolder: where the photos' variants are kept (`DATA_DIR/photos`).
    init(
        database: any SQLiteDatabase, topics: any TopicPublisher, mailSender: MailAddress? = nil, relyingParty: PasskeyRelyingParty = .localhost,
        hasher: PasswordHasher = PasswordHasher(),
        photoFolder: String = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-photos").path
    ) {
        catalog = CatalogService(store: SQLiteCatalogStore(database: database, topics: topics), topics: topics)
        photos = PhotoService(store: SQLitePhotoStore(database: database, folder: photoFolder), catalog: catalog, topics: topics)
        rateLimits = MemoryRateLimitStore()
        accounts = AccountsService(store: SQLiteAccountsStore(database: database), hasher: hasher, throttle: SignInThrottle(store: rateLimits))
        passkeys = PasskeyService(relyingParty: relyingParty, store: SQLitePasskeyStore(database: database), accounts: accounts)
        passwordResets = PasswordResetService(
            store: SQLitePasswordResetStore(database: database), accounts: accounts, sender: mailSender ?? .localShop)
        cart = CartService(store: SQLiteCartStore(database: database), catalog: catalog)
        let outbox = SQLiteMailOutbox(database: database.writer)
        orders = OrderService(
            store: SQLiteOrderStore(database: database), transactions: SQLiteOrderTransactions(database: database), cart: cart,
            topics: topics, confirmations: mailSender.map { [accounts] in OrderConfirmations(sender: $0, accounts: accounts, deadLetters: outbox) })
        mailOutbox = outbox
    }

    init(
        postgres connections: PostgresConnections, topics: any TopicPublisher, mailSender: MailAddress? = nil,
        relyingParty: PasskeyRelyingParty = .localhost, hasher: PasswordHasher = PasswordHasher()
    ) {
        catalog = CatalogService(store: PostgresCatalogStore(connections: connections, topics: topics), topics: topics)
        photos = PhotoService(store: PostgresPhotoStore(connections: connections), catalog: catalog, topics: topics)
        rateLimits = PostgresRateLimitStore(connections: connections)
        accounts = AccountsService(
            store: PostgresAccountsStore(connections: connections), hasher: hasher, throttle: SignInThrottle(store: rateLimits))
        passkeys = PasskeyService(relyingParty: relyingParty, store: PostgresPasskeyStore(connections: connections), accounts: accounts)
        passwordResets = PasswordResetService(
            store: PostgresPasswordResetStore(connections: connections), accounts: accounts, sender: mailSender ?? .localShop)
        cart = CartService(store: PostgresCartStore(connections: connections), catalog: catalog)
        let outbox = PostgresMailOutbox(connections: connections)
        orders = OrderService(
            store: PostgresOrderStore(connections: connections), transactions: PostgresOrderTransactions(connections: connections), cart: cart,
            topics: topics, confirmations: mailSender.map { [accounts] in OrderConfirmations(sender: $0, accounts: accounts, deadLetters: outbox) })
        mailOutbox = outbox
    }
}

extension PasskeyRelyingParty {
    /// A developer's machine, and the services that never see a passkey (seeding, tests).
    static let localhost = PasskeyRelyingParty(id: "localhost", name: "Tessera Shop")
}
