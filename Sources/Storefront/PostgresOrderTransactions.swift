import Catalog
import Orders
import Tessera
import TesseraMailPostgres
import TesseraPostgres

/// Order changes in one PostgreSQL transaction, on one connection of the pool: the same body as
/// ``SQLiteOrderTransactions`` runs, with each module's PostgreSQL writes.
struct PostgresOrderTransactions: OrderTransactions {
    let connections: PostgresConnections

    func run<T: Sendable>(within budget: DatabaseBudget, _ body: @escaping @Sendable (OrderTransactionStores) throws -> T) async throws -> T {
        try await connections.write(within: budget) { connection in
            try body(
                OrderTransactionStores(
                    stock: PostgresCatalogStore.stockReservations(in: connection),
                    orders: PostgresOrderStore.writes(in: connection),
                    carts: PostgresCartStore.writes(in: connection),
                    mail: PostgresMailOutbox.writes(in: connection)
                ))
        }
    }
}
