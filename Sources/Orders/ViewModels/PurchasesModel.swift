import Tessera
import TesseraViews

/// "Your purchases of this product": one row per order that holds it.
struct PurchasesModel: Sendable {
    struct Row: Sendable {
        var orderID: Int
        var url: String
        var placedOn: LocalizedDate
        var placedISO: String
        var quantity: Int
        var status: String
        var statusLabel: LocalizedText
    }

    var rows: [Row]

    init(_ purchases: [Purchase]) {
        rows = purchases.map {
            Row(
                orderID: $0.orderID, url: OrdersRoutes.order.path($0.orderID), placedOn: LocalizedDate($0.placedAt),
                placedISO: DisplayDate.iso($0.placedAt), quantity: $0.quantity, status: $0.status.rawValue, statusLabel: $0.status.localizedLabel)
        }
    }
}
