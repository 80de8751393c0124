import Catalog
import Foundation
import Tessera
import TesseraViews

// What the Orders views show: plain values, formatted here once so templates only print them.

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

struct CheckoutModel: Sendable {
    var items: LineItems
    var isEmpty: Bool
    var error: String?
}

struct OrderListModel: Sendable {
    struct Filter: Sendable {
        var label: String
        var url: String
        var status: String
        var current: String
    }

    var filters: [Filter]
    var rows: [HTMLOutput]
    var isEmpty: Bool
    var emptyMessage: String
}

/// An order that can be paid: the pay form carries a fresh idempotency key, so submitting that
/// same form twice charges once.
struct PayableOrder: Sendable {
    var order: OrderSummary
    var payURL: String
    var idempotencyKey: String
    var cancellation: CancelForm

    init(_ order: Order, cancellation: CancelForm? = nil) {
        self.order = OrderSummary(order)
        payURL = OrdersRoutes.pay.path(order.id)
        idempotencyKey = UUID().uuidString.lowercased()
        self.cancellation = cancellation ?? CancelForm(order)
    }
}

struct CancelForm: Sendable {
    var url: String
    var reason: String
    var error: String?

    init(_ order: Order, reason: String = "", error: String? = nil) {
        url = OrdersRoutes.cancel.path(order.id)
        self.reason = reason
        self.error = error
    }
}

struct PaidOrder: Sendable {
    var amount: String
    var amountMinor: Int
    var paidOn: String
    var paidISO: String
    var reference: String
    var cancellation: CancelForm

    init(_ order: Order, cancellation: CancelForm?) {
        // A paid order always has its payment: the store writes both in one transaction.
        let payment = order.payment ?? Payment(reference: "—", idempotencyKey: "", amountMinor: order.totalMinor, paidAt: order.placedAt)
        amount = Money.format(minor: payment.amountMinor)
        amountMinor = payment.amountMinor
        paidOn = DisplayDate.long(payment.paidAt)
        paidISO = DisplayDate.iso(payment.paidAt)
        reference = payment.reference
        self.cancellation = cancellation ?? CancelForm(order)
    }
}

struct ShippedOrder: Sendable {
    var trackingNumber: String
    var confirmURL: String
}

struct CompletedOrder: Sendable {
    struct ShownReview: Sendable {
        var rating: Int
        var stars: String
        var text: String
        var reviewedOn: String
        var reviewedISO: String
    }

    struct RatingOption: Sendable {
        var value: Int
        var label: String
        var isSelected: Bool
    }

    var review: ShownReview?
    var reviewURL: String
    var ratingOptions: [RatingOption]
    var text: String
    var ratingError: String?
    var textError: String?

    init(_ order: Order, form: FormState) {
        review = order.review.map {
            ShownReview(rating: $0.rating, stars: String(repeating: "★", count: $0.rating) + String(repeating: "☆", count: 5 - $0.rating),
                        text: $0.text, reviewedOn: DisplayDate.long($0.reviewedAt), reviewedISO: DisplayDate.iso($0.reviewedAt))
        }
        reviewURL = OrdersRoutes.review.path(order.id)
        let chosen = form.values["rating"] ?? "5"
        ratingOptions = (1...5).reversed().map { value in
            RatingOption(value: value, label: String(repeating: "★", count: value) + " (\(value))", isSelected: String(value) == chosen)
        }
        text = form.values["text"] ?? ""
        ratingError = form.errors["rating"]
        textError = form.errors["text"]
    }
}

struct CancelledOrder: Sendable {
    var reason: String
    var settlement: String
}

struct PurchasesModel: Sendable {
    struct Row: Sendable {
        var orderID: Int
        var url: String
        var placedOn: String
        var placedISO: String
        var quantity: Int
        var status: String
        var statusLabel: String
    }

    var rows: [Row]

    init(_ purchases: [Purchase]) {
        rows = purchases.map {
            Row(orderID: $0.orderID, url: OrdersRoutes.order.path($0.orderID), placedOn: DisplayDate.long($0.placedAt),
                placedISO: DisplayDate.iso($0.placedAt), quantity: $0.quantity, status: $0.status.rawValue, statusLabel: $0.status.label)
        }
    }
}
