import Tessera
import TesseraViews

/// Loads the signed-in shopper's order, or answers as if it did not exist.
struct OrderLookup {
    let orders: OrderService

    func order(_ id: Int, of userID: Int, within budget: DatabaseBudget) async throws -> Order {
        guard let order = try await orders.order(id, of: userID, within: budget) else {
            throw HTTPError(.notFound, Messages.errorNoOrder.text(["id": id]))
        }
        return order
    }
}
