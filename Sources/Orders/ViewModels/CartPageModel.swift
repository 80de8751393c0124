import Catalog
import Tessera
import TesseraViews

/// `/cart`: its lines with the forms to change them, and the server's totals.
struct CartPageModel: Sendable {
    /// A quantity the cart refused (422): for which line, what was typed, and why.
    struct QuantityRefusal: Sendable {
        var productID: Int
        var quantity: String
        var message: String
    }

    struct Line: Sendable {
        var item: LineItems.Line
        var updateURL: String
        var removeURL: String
        /// The quantity field's id, and its label for screen readers: "Quantity of Brass Desk Lamp".
        var quantityID: String
        var quantityLabel: LocalizedText
        /// What the quantity field shows: the line's quantity, or what was typed when it was refused.
        var quantity: String
        /// Why this line's quantity was refused, shown under its field.
        var error: String?
        /// The message's id, for the field's `aria-describedby`.
        var errorID: String
    }

    var lines: [Line]
    var total: Price
    var totalMinor: Int
    var itemCount: Int
    var isEmpty: Bool
    /// A refusal for a line that is no longer in the cart, shown above it.
    var error: String?

    init(_ cart: CartService.Cart?, refusal: QuantityRefusal?) {
        let items = LineItems(cart ?? CartService.Cart(lines: []))
        lines = items.lines.map { item in
            let refused = refusal?.productID == item.productID ? refusal : nil
            return Line(
                item: item, updateURL: OrdersRoutes.updateLine.path(item.productID), removeURL: OrdersRoutes.removeLine.path(item.productID),
                quantityID: "quantity-\(item.productID)", quantityLabel: Messages.cartQuantityOf.text(["name": item.name]),
                quantity: refused?.quantity ?? String(item.quantity), error: refused?.message,
                errorID: "quantity-\(item.productID)-error")
        }
        total = items.total
        totalMinor = items.totalMinor
        itemCount = cart?.itemCount ?? 0
        isEmpty = lines.isEmpty
        error = lines.contains(where: { $0.error != nil }) ? nil : refusal?.message
    }
}
