import Catalog
import Foundation
import Tessera
import TesseraViews

/// An order as every order view shows it: id, link, date, status, total.
struct OrderSummary: Sendable {
    var id: Int
    var url: String
    var status: String
    var statusLabel: LocalizedText
    var placedOn: LocalizedDate
    var placedISO: String
    var items: ItemsSummary
    var total: Price
    var totalMinor: Int

    init(_ order: Order) {
        id = order.id
        url = OrdersRoutes.order.path(order.id)
        status = order.status.rawValue
        statusLabel = order.status.localizedLabel
        placedOn = LocalizedDate(order.placedAt)
        placedISO = DisplayDate.iso(order.placedAt)
        items = ItemsSummary(names: order.lines.map(\.productName), units: order.itemCount)
        total = Price(minor: order.totalMinor)
        totalMinor = order.totalMinor
    }

}

/// What an order holds, counting units and products apart when they differ, in the page's
/// language: "1 item: Brass Desk Lamp", "3 items (2 products): Brass Desk Lamp, Cast Iron Pan",
/// "5 items (3 products): Brass Desk Lamp, Cast Iron Pan and 1 more product".
struct ItemsSummary: Sendable, HTMLOutputConvertible {
    var names: [String]
    var units: Int

    func write(to output: inout HTMLOutput, context: HTMLContext) {
        Messages.summaryItems.text(count: units).write(to: &output, context: context)
        if names.count != units {
            " (".write(to: &output, context: context)
            Messages.summaryProducts.text(count: names.count).write(to: &output, context: context)
            ")".write(to: &output, context: context)
        }
        (": " + names.prefix(2).joined(separator: ", ")).write(to: &output, context: context)
        let more = names.count - 2
        if more > 0 {
            " ".write(to: &output, context: context)
            Messages.summaryMore.text(count: more).write(to: &output, context: context)
        }
    }
}

enum DisplayDate {
    static func iso(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day())
    }
}
