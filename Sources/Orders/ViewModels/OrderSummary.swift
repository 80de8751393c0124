import Catalog
import Foundation

/// An order as every order view shows it: id, link, date, status, total.
struct OrderSummary: Sendable {
    var id: Int
    var url: String
    var status: String
    var statusLabel: String
    var placedOn: String
    var placedISO: String
    var items: String
    var total: String
    var totalMinor: Int

    init(_ order: Order) {
        id = order.id
        url = OrdersRoutes.order.path(order.id)
        status = order.status.rawValue
        statusLabel = order.status.label
        placedOn = DisplayDate.long(order.placedAt)
        placedISO = DisplayDate.iso(order.placedAt)
        items = Self.itemsSummary(order)
        total = Money.format(minor: order.totalMinor)
        totalMinor = order.totalMinor
    }

    /// What the order holds, counting units and products apart when they differ:
    /// "1 item: Brass Desk Lamp", "2 items: Brass Desk Lamp, Cast Iron Pan",
    /// "3 items (2 products): Brass Desk Lamp, Cast Iron Pan",
    /// "5 items (3 products): Brass Desk Lamp, Cast Iron Pan and 1 more product".
    static func itemsSummary(_ order: Order) -> String {
        let names = order.lines.map(\.productName)
        let units = order.itemCount
        var summary = "\(units) \(units == 1 ? "item" : "items")"
        if names.count != units { summary += " (\(names.count) \(names.count == 1 ? "product" : "products"))" }
        summary += ": " + names.prefix(2).joined(separator: ", ")
        let more = names.count - 2
        if more > 0 { summary += " and \(more) more \(more == 1 ? "product" : "products")" }
        return summary
    }
}

enum DisplayDate {
    static func long(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted, locale: Locale(identifier: "en_US"), timeZone: .gmt))
    }

    static func iso(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day())
    }
}
