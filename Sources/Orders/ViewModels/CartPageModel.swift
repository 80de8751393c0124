/// `/cart`: its lines with the forms to change them, and the server's totals.
struct CartPageModel: Sendable {
    struct Line: Sendable {
        var item: LineItems.Line
        var updateURL: String
        var removeURL: String
    }

    var lines: [Line]
    var total: String
    var totalMinor: Int
    var itemCount: Int
    var isEmpty: Bool
    var error: String?

    init(_ cart: CartService.Cart?, error: String?) {
        let items = LineItems(cart ?? CartService.Cart(lines: []))
        lines = items.lines.map { item in
            Line(item: item, updateURL: OrdersRoutes.updateLine.path(item.productID), removeURL: OrdersRoutes.removeLine.path(item.productID))
        }
        total = items.total
        totalMinor = items.totalMinor
        itemCount = cart?.itemCount ?? 0
        isEmpty = lines.isEmpty
        self.error = error
    }
}
