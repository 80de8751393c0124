/// Stock moves inside a transaction that another module runs: an order reserves its lines'
/// stock in the same transaction that creates it, and a cancellation gives it back in the one
/// that cancels it.
///
/// The catalog owns this protocol and its table; others only ever move stock through it, on the
/// handle a transaction gives them (``SQLiteCatalogStore/stockReservations(in:)`` for SQLite).
/// The methods are synchronous because they run inside a database transaction, which must not
/// suspend.
public protocol StockReservations {
    /// Takes `quantity` of a product out of stock and returns the product as it was priced at
    /// that moment; throws ``StockShortage`` when it cannot, and then the caller's transaction
    /// should roll back. The check and the decrement must be one conditional statement, so that
    /// two checkouts racing for the last item cannot both win.
    func reserve(_ quantity: Int, of productID: Int) throws -> Product

    /// Puts reserved items back, for an order that will never ship.
    func release(_ quantity: Int, of productID: Int) throws
}

/// Why a reservation was refused.
public enum StockShortage: Error, Equatable, Sendable {
    case unknownProduct(id: Int)
    case insufficient(productName: String, available: Int)
}
