import Accounts
import Catalog
import GRDB
import Orders

/// Every service of the shop, wired to its SQLite store and to the transaction that order
/// changes share. Another database would swap the stores here and nowhere else.
struct StorefrontServices {
    let catalog: CatalogService
    let accounts: AccountsService
    let cart: CartService
    let orders: OrderService

    init(database: any DatabaseWriter) {
        catalog = CatalogService(store: SQLiteCatalogStore(database: database))
        accounts = AccountsService(store: SQLiteAccountsStore(database: database))
        cart = CartService(store: SQLiteCartStore(database: database), catalog: catalog)
        orders = OrderService(store: SQLiteOrderStore(database: database), transactions: SQLiteOrderTransactions(database: database), cart: cart)
    }
}
