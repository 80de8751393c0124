import Catalog

/// Lines with prices, for checkout and the order page.
struct LineItems: Sendable {
    struct Line: Sendable {
        var productID: Int
        var name: String
        var url: String
        var quantity: Int
        var unitPrice: String
        var unitPriceMinor: Int
        var total: String
        var totalMinor: Int
    }

    var lines: [Line]
    var total: String
    var totalMinor: Int

    init(_ order: Order) {
        lines = order.lines.map { line in
            Line(productID: line.productID, name: line.productName, url: CatalogRoutes.product.path(line.productID), quantity: line.quantity,
                 unitPrice: Money.format(minor: line.unitPriceMinor), unitPriceMinor: line.unitPriceMinor,
                 total: Money.format(minor: line.totalMinor), totalMinor: line.totalMinor)
        }
        totalMinor = order.totalMinor
        total = Money.format(minor: totalMinor)
    }

    init(_ cart: CartService.Cart) {
        lines = cart.lines.map { line in
            Line(productID: line.product.id, name: line.product.name, url: line.product.url, quantity: line.quantity,
                 unitPrice: line.product.price, unitPriceMinor: line.product.priceMinor,
                 total: Money.format(minor: line.totalMinor), totalMinor: line.totalMinor)
        }
        totalMinor = cart.totalMinor
        total = Money.format(minor: totalMinor)
    }
}
