import Foundation
public import Tessera

/// Where orders are read from. ``OrderService`` owns the rules and talks to this protocol for
/// reads, and to ``OrderTransactions`` for every change, so another database can be added
/// without touching the service or the controllers.
public protocol OrderStore: Sendable {
    func order(id: Int, within budget: DatabaseBudget) async throws -> Order?

    /// The user's orders, newest first, optionally of one status only.
    func orders(userID: Int, status: OrderStatus?, within budget: DatabaseBudget) async throws -> [Order]

    /// The user's paid, shipped and completed orders that contain the product, newest first.
    func purchases(userID: Int, productID: Int, within budget: DatabaseBudget) async throws -> [Purchase]

    /// Every shopper's orders, newest first, at most `limit`: the back office's list.
    func allOrders(status: OrderStatus?, limit: Int, within budget: DatabaseBudget) async throws -> [Order]

    /// The order's history, oldest first.
    func history(orderID: Int, within budget: DatabaseBudget) async throws -> [OrderHistoryEntry]

    /// The number the user's next checkout will have: one more than their last one's.
    func nextCheckoutNumber(userID: Int, within budget: DatabaseBudget) async throws -> Int
}

/// What a transition records besides the new status.
public enum OrderChange: Sendable, Equatable {
    case payment(Payment)
    case shipment(trackingNumber: String)
    case receipt
    /// The service puts the order's items back in stock in the same transaction.
    case cancellation(reason: String)
    case review(Review)
}
