import GRDB

/// Stock moves inside a caller's transaction. Orders reserve stock in the same SQLite transaction
/// that creates the order (and give it back in the one that cancels it), so the catalog offers
/// these steps on a GRDB `Database` rather than as store methods that would each commit alone.
/// The catalog still owns its table: no other module writes `product` directly.
public enum StockReservation {
    /// Why a reservation was refused; the transaction that asked should roll back.
    public enum Shortage: Error, Equatable, Sendable {
        case unknownProduct(id: Int)
        case insufficient(productName: String, available: Int)
    }

    /// Takes `quantity` of a product out of stock and returns the product as it was priced at
    /// that moment. The check and the decrement are one statement, so two checkouts racing for the
    /// last item cannot both win.
    public static func reserve(_ quantity: Int, of productID: Int, in db: Database) throws -> Product {
        precondition(quantity > 0, "a reservation is for at least one item")
        guard let product = try Product.fetchOne(db, key: productID) else { throw Shortage.unknownProduct(id: productID) }
        try db.execute(sql: "UPDATE product SET stock = stock - ? WHERE id = ? AND stock >= ?", arguments: [quantity, productID, quantity])
        guard db.changesCount == 1 else { throw Shortage.insufficient(productName: product.name, available: product.stock) }
        return product
    }

    /// Puts reserved items back, for an order that will never ship.
    public static func release(_ quantity: Int, of productID: Int, in db: Database) throws {
        try db.execute(sql: "UPDATE product SET stock = stock + ? WHERE id = ?", arguments: [quantity, productID])
    }
}
