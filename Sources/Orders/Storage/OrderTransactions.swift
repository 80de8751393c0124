public import Catalog
public import Foundation
public import Tessera
public import TesseraMail

/// What changing orders needs inside one transaction: the catalog's stock, the orders' own
/// rows, the carts and the mail outbox. Each module owns its protocol; the transaction hands
/// out all four on the same connection, so placing an order (reserve stock, create the order,
/// empty the cart, queue its confirmation) commits together or not at all.
public struct OrderTransactionStores {
    /// The catalog's stock, taken and given back on the transaction's connection.
    public let stock: any StockReservations
    /// The orders' rows and their history.
    public let orders: any OrderWrites
    /// The carts, emptied by checkout.
    public let carts: any CartWrites
    /// The mail outbox, which gets the order's confirmation.
    public let mail: any MailOutboxWrites

    /// The four stores of one transaction; each database's `OrderTransactions` makes them on one connection.
    public init(stock: any StockReservations, orders: any OrderWrites, carts: any CartWrites, mail: any MailOutboxWrites) {
        self.stock = stock
        self.orders = orders
        self.carts = carts
        self.mail = mail
    }
}

/// Runs order changes in one database transaction. The composition root provides it (it alone
/// knows the database), so no module reaches into another's tables or database handle.
///
/// The body is synchronous: an SQLite transaction runs on the writer's queue and must not
/// suspend. A store for a database with asynchronous drivers implements the same steps on one
/// connection inside its own transaction.
public protocol OrderTransactions: Sendable {
    /// Runs `body` in one transaction, committed when it returns and rolled back when it throws.
    func run<T: Sendable>(within budget: DatabaseBudget, _ body: @escaping @Sendable (OrderTransactionStores) throws -> T) async throws -> T
}

/// Order rows changed inside an ``OrderTransactions`` transaction.
public protocol OrderWrites {
    /// Makes every other transaction that checks `userID` out wait until this one ends, so that
    /// two submissions of one checkout form see each other's order, never both place one.
    func lockCheckouts(of userID: Int) throws

    /// The order the user's checkout number `number` placed, if one did.
    func order(placedBy userID: Int, checkoutNumber number: Int) throws -> Int?

    /// The user's last checkout number, 0 before their first.
    func lastCheckoutNumber(of userID: Int) throws -> Int

    /// Creates an order awaiting payment with these lines, as the user's checkout `checkoutNumber`
    /// (`nil` for an order that no checkout form placed); returns its id.
    func insertOrder(userID: Int, lines: [OrderLine], at date: Date, checkoutNumber: Int?) throws -> Int

    /// Moves an order from `expected` to `status` and records what came with the move, only if
    /// the order is still in `expected`. Returns `false` when another request moved it first.
    func update(orderID: Int, from expected: OrderStatus, to status: OrderStatus, recording change: OrderChange) throws -> Bool

    /// Adds an entry to the order's history.
    func record(_ entry: OrderHistoryEntry, orderID: Int) throws
}

/// Cart rows changed inside an ``OrderTransactions`` transaction.
public protocol CartWrites {
    /// Empties the cart, as placing its order does.
    func empty(cart: String) throws
}
