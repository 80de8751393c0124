import Foundation
import TesseraViews
import Testing

@testable import Orders

/// The orders list's one-line summary of what an order holds.
@Suite struct OrderSummaryTests {
    static func order(_ lines: [(name: String, quantity: Int)]) -> Order {
        Order(
            id: 1, userID: 1, status: .paid, placedAt: Date(timeIntervalSince1970: 0),
            lines: lines.enumerated().map { index, line in
                OrderLine(productID: index + 1, productName: line.name, unitPriceMinor: 100, quantity: line.quantity)
            })
    }

    static func items(_ lines: [(name: String, quantity: Int)], in language: Language = .english) -> String {
        var output = HTMLOutput(language: language)
        output.text(OrderSummary(order(lines)).items)
        return output.string
    }

    @Test func countsItemsAndProductsApartWhenTheyDiffer() {
        #expect(Self.items([("Brass Desk Lamp", 1)]) == "1 item: Brass Desk Lamp")
        #expect(Self.items([("Brass Desk Lamp", 1), ("Cast Iron Pan", 1)]) == "2 items: Brass Desk Lamp, Cast Iron Pan")
        #expect(Self.items([("Brass Desk Lamp", 2), ("Cast Iron Pan", 1)]) == "3 items (2 products): Brass Desk Lamp, Cast Iron Pan")
        #expect(Self.items([("Brass Desk Lamp", 3)]) == "3 items (1 product): Brass Desk Lamp")
        #expect(Self.items([("A", 1), ("B", 1), ("C", 3)]) == "5 items (3 products): A, B and 1 more product")
    }

    @Test func germanCountsWithItsOwnPlurals() {
        let german = Language("de")
        #expect(Self.items([("Lampe", 1)], in: german) == "1 Artikel: Lampe")
        #expect(Self.items([("A", 1), ("B", 1), ("C", 3)], in: german) == "5 Artikel (3 Produkte): A, B und 1 weiteres Produkt")
        #expect(Self.items([("A", 1), ("B", 1), ("C", 1), ("D", 1)], in: german) == "4 Artikel: A, B und 2 weitere Produkte")
    }
}
