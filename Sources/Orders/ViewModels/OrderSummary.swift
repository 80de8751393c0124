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
        let names = order.lines.map(\.productName)
        let count = order.itemCount
        items = "\(count) \(count == 1 ? "item" : "items"): " + names.prefix(2).joined(separator: ", ") + (names.count > 2 ? " and \(names.count - 2) more" : "")
        total = Money.format(minor: order.totalMinor)
        totalMinor = order.totalMinor
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
