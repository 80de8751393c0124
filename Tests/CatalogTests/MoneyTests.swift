import Catalog
import TesseraViews
import Testing

/// Prices for people (`$12.50`, `12,50 $` in German) and for machines (schema.org's `12.50` and `USD`).
@Suite struct MoneyTests {
    @Test func formatsForPeopleAndForMachines() {
        let german = Language("de", currencies: [Money.currencyCode])
        #expect(Price(minor: 1250).formatted(in: .english) == "$12.50")
        #expect(Price(minor: 5).formatted(in: .english) == "$0.05")
        #expect(Price(minor: -1999).formatted(in: .english) == "-$19.99")
        #expect(Price(minor: 123_456).formatted(in: german) == "1.234,56\u{00A0}$")
        var page = HTMLOutput(language: german)
        page.text(Price(minor: 1250))
        #expect(page.string == "12,50\u{00A0}$", "a price in a view takes the page's language")
        #expect(Money.decimal(minor: 1250) == "12.50")
        #expect(Money.decimal(minor: 100) == "1.00")
        #expect(Money.decimal(minor: -5) == "-0.05")
        #expect(Money.currencyCode == "USD")
    }

    @Test func stockLevelsHaveTheirOwnClass() {
        func product(stock: Int) -> Product {
            Product(id: 1, categoryID: 1, name: "Lamp", summary: "", priceMinor: 1250, stock: stock, imagePath: "/images/products/1.svg")
        }
        #expect(product(stock: 0).stockClass == "stock-out")
        #expect(product(stock: 0).availabilityURL == "https://schema.org/OutOfStock")
        #expect(product(stock: 3).stockClass == "stock-low")
        #expect(product(stock: 3).availabilityURL == "https://schema.org/InStock")
        #expect(product(stock: 12).stockClass == "stock-in")
        #expect(product(stock: 12).priceDecimal == "12.50")
        func label(_ stock: Int, _ language: Language) -> String {
            var output = HTMLOutput(language: language)
            output.text(product(stock: stock).stockLabel)
            return output.string
        }
        #expect([0, 1, 3, 12].map { label($0, .english) } == ["Sold out", "Only 1 left", "Only 3 left", "In stock"])
        #expect([0, 1, 3, 12].map { label($0, Language("de")) } == ["Ausverkauft", "Nur noch 1 Stück", "Nur noch 3 Stück", "Auf Lager"])
    }
}
