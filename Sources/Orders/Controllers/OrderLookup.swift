import Tessera

/// Loads the signed-in shopper's order, or answers as if it did not exist.
struct OrderLookup {
    let orders: OrderService

    func order(_ id: Int, in context: RequestContext, returningTo returnPath: String? = nil) async throws -> Order {
        let userID = try SignedInShopper.require(context, returningTo: returnPath)
        guard let order = try await orders.order(id, of: userID) else {
            throw HTTPError(.notFound, Messages.errorNoOrder.text(["id": id]))
        }
        return order
    }
}
