import Foundation
@testable import Orders
import Testing

/// The orders list's one-line summary of what an order holds.
@Suite struct OrderSummaryTests {
    static func order(_ lines: [(name: String, quantity: Int)]) -> Order {
        Order(id: 1, userID: 1, status: .paid, placedAt: Date(timeIntervalSince1970: 0), lines: lines.enumerated().map { index, line in
            OrderLine(productID: index + 1, productName: line.name, unitPriceMinor: 100, quantity: line.quantity)
        })
    }

    @Test func countsItemsAndProductsApartWhenTheyDiffer() {
        #expect(OrderSummary(Self.order([("Brass Desk Lamp", 1)])).items == "1 item: Brass Desk Lamp")
        #expect(OrderSummary(Self.order([("Brass Desk Lamp", 1), ("Cast Iron Pan", 1)])).items == "2 items: Brass Desk Lamp, Cast Iron Pan")
        #expect(OrderSummary(Self.order([("Brass Desk Lamp", 2), ("Cast Iron Pan", 1)])).items == "3 items (2 products): Brass Desk Lamp, Cast Iron Pan")
        #expect(OrderSummary(Self.order([("Brass Desk Lamp", 3)])).items == "3 items (1 product): Brass Desk Lamp")
        #expect(OrderSummary(Self.order([("A", 1), ("B", 1), ("C", 3)])).items == "5 items (3 products): A, B and 1 more product")
    }
}
