import Catalog
import Tessera

/// Lines with prices, for checkout and the order page.
struct LineItems: Sendable {
    struct Line: Sendable {
        var productID: Int
        var name: String
        var url: String
        var quantity: Int
        var unitPrice: Price
        var unitPriceMinor: Int
        var total: Price
        var totalMinor: Int
    }

    var lines: [Line]
    var total: Price
    var totalMinor: Int

    init(_ order: Order) {
        lines = order.lines.map { line in
            Line(
                productID: line.productID, name: line.productName, url: CatalogRoutes.product.path(line.productID), quantity: line.quantity,
                unitPrice: Price(minor: line.unitPriceMinor), unitPriceMinor: line.unitPriceMinor,
                total: Price(minor: line.totalMinor), totalMinor: line.totalMinor)
        }
        totalMinor = order.totalMinor
        total = Price(minor: totalMinor)
    }

    init(_ cart: CartService.Cart) {
        lines = cart.lines.map { line in
            Line(
                productID: line.product.id, name: line.product.name, url: line.product.url, quantity: line.quantity,
                unitPrice: line.product.price, unitPriceMinor: line.product.priceMinor,
                total: Price(minor: line.totalMinor), totalMinor: line.totalMinor)
        }
        totalMinor = cart.totalMinor
        total = Price(minor: totalMinor)
    }
}
