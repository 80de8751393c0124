import Catalog
import Foundation

/// Where orders live. ``OrderService`` owns the rules and talks to this protocol only, so a
/// PostgreSQL store can be added without touching the service or the controllers. A store must
/// make each method one transaction: ``placeOrder(userID:lines:clearingCart:at:)`` reserves
/// stock, creates the order and empties the cart together, or does none of it.
public protocol OrderStore: Sendable {
    /// Creates an order awaiting payment, reserving stock for every line at the catalog's current
    /// prices. Throws ``StockReservation/Shortage`` when a line cannot be served; nothing changes then.
    func placeOrder(userID: Int, lines: [(productID: Int, quantity: Int)], clearingCart cartID: String?, at date: Date) async throws -> Order

    func order(id: Int) async throws -> Order?

    /// The user's orders, newest first, optionally of one status only.
    func orders(userID: Int, status: OrderStatus?) async throws -> [Order]

    /// The user's paid, shipped and completed orders that contain the product, newest first.
    func purchases(userID: Int, productID: Int) async throws -> [Purchase]

    /// Moves an order from `expected` to `status` and records what came with the move, only if
    /// the order is still in `expected`. Returns `false` when another request moved it first.
    func update(orderID: Int, from expected: OrderStatus, to status: OrderStatus, recording change: OrderChange) async throws -> Bool
}

/// What a transition records besides the new status.
public enum OrderChange: Sendable, Equatable {
    case payment(Payment)
    case shipment(trackingNumber: String)
    case receipt
    /// Cancelling puts the order's items back in stock, in the same transaction.
    case cancellation(reason: String)
    case review(Review)
}
