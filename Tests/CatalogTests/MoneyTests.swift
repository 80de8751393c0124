import Catalog
import Testing

/// Prices for people (`$12.50`) and for machines (schema.org's `12.50` and `USD`).
@Suite struct MoneyTests {
    @Test func formatsForPeopleAndForMachines() {
        #expect(Money.format(minor: 1250) == "$12.50")
        #expect(Money.format(minor: 5) == "$0.05")
        #expect(Money.format(minor: -1999) == "-$19.99")
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
    }
}
