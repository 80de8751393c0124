public import Foundation
import Tessera

/// The demo orders the first run creates for the first demo user: one in every status, placed
/// over the past weeks, each made through ``OrderService`` so it follows the same rules
/// (stock reserved, payment recorded, state machine) as a shopper's.
public enum OrdersSeed {
    /// Products, quantities, how many days ago, and the status to bring the order to.
    static let orders: [(lines: [(productID: Int, quantity: Int)], daysAgo: Int, status: OrderStatus)] = [
        ([(2, 1), (17, 2)], 30, .completed),
        ([(26, 1)], 24, .completed),
        ([(9, 1)], 21, .cancelled),
        ([(3, 2), (33, 1)], 12, .shipped),
        ([(25, 1)], 5, .paid),
        ([(11, 1), (19, 3)], 1, .awaitingPayment),
    ]

    /// Seeds when the user has no orders yet.
    public static func seedIfEmpty(_ service: OrderService, userID: Int, shopperName: String, now: Date = Date()) async throws {
        guard try await service.orders(of: userID, status: nil, within: .outsideRequest).isEmpty else { return }
        for seed in orders {
            let placed = now.addingTimeInterval(-Double(seed.daysAgo) * 86_400)
            var order: Order
            do {
                order = try await service.placeOrder(
                    userID: userID, lines: seed.lines, clearingCart: nil, at: placed, by: .shopper(shopperName), within: .outsideRequest)
            } catch is CheckoutError {
                continue  // the stock ran out since; a demo order is not worth failing the start for
            }
            switch seed.status {
            case .awaitingPayment:
                break
            case .cancelled:
                _ = try await service.cancel(order, reason: "Ordered the wrong colour.", by: .shopper(shopperName), within: .outsideRequest)
            case .paid, .shipped, .completed:
                if case .charged(let paid) = try await service.pay(
                    order, idempotencyKey: "seed-\(order.id)", by: .shopper(shopperName), within: .outsideRequest)
                {
                    order = paid
                }
                if seed.status == .paid { break }
                order = try await service.ship(order, by: .demoData, within: .outsideRequest)
                if seed.status == .shipped { break }
                order = try await service.confirmReceipt(order, by: .shopper(shopperName), within: .outsideRequest)
                if seed.daysAgo == 30 {  // one completed order reviewed, one still waiting for its review
                    _ = try await service.review(
                        order, rating: 5, text: "Lovely quality, and it arrived quickly.", by: .shopper(shopperName), within: .outsideRequest)
                }
            }
        }
    }
}
