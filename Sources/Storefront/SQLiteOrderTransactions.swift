import Catalog
import GRDB
import Orders
import Tessera
import TesseraMailSQLite
import TesseraSQLite

/// Order changes in one SQLite transaction: the composition root owns the database, so it is the
/// one that opens the transaction and hands each module its own writes on it.
struct SQLiteOrderTransactions: OrderTransactions {
    let database: any SQLiteDatabase

    func run<T: Sendable>(within budget: DatabaseBudget, _ body: @escaping @Sendable (OrderTransactionStores) throws -> T) async throws -> T {
        try await database.write(within: budget) { db in
            try body(
                OrderTransactionStores(
                    stock: SQLiteCatalogStore.stockReservations(in: db),
                    orders: SQLiteOrderStore.writes(in: db),
                    carts: SQLiteCartStore.writes(in: db),
                    mail: SQLiteMailOutbox.writes(in: db)
                ))
        }
    }
}
