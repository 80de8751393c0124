import Catalog
import Foundation
import Orders
import Tessera
import TesseraMail

/// How the back office shows dates: the day and the time, in UTC, as staff compare them.
enum AdminDates {
    static func text(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: TimeZone(identifier: "UTC")!)) + " UTC"
    }

    static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

/// One order in the back office's list.
struct AdminOrderRow: Sendable {
    var id: Int
    var url: String
    var placedOn: String
    var placedISO: String
    var customer: Int
    var items: Int
    var status: String
    var statusLabel: String
    var total: Price
    var totalMinor: Int

    init(_ order: Order) {
        id = order.id
        url = BackOfficeRoutes.order.path(order.id)
        placedOn = AdminDates.text(order.placedAt)
        placedISO = AdminDates.iso(order.placedAt)
        customer = order.userID
        items = order.itemCount
        status = order.status.rawValue
        statusLabel = order.status.label
        total = Price(minor: order.totalMinor)
        totalMinor = order.totalMinor
    }
}

/// `/admin/orders`: the status filters and the orders.
struct AdminOrderListModel: Sendable {
    var filters: [OrderStatusFilter]
    var rows: [AdminOrderRow]
    var isEmpty: Bool
}

/// `/admin/orders/{id}`: the order, what staff may do with it now, and its history.
struct AdminOrderModel: Sendable {
    struct Line: Sendable {
        var name: String
        var quantity: Int
        var total: Price
    }

    struct HistoryRow: Sendable {
        var at: String
        var atISO: String
        var actor: String
        var role: String
        var action: String
        var detail: String
    }

    struct TextField: Sendable {
        var url: String
        var value: String
        var error: String?
    }

    var order: AdminOrderRow
    var lines: [Line]
    var trackingNumber: String?
    var cancellationReason: String?
    /// The ship form, when the order is paid.
    var ship: TextField?
    /// The cancel form, while the order may be cancelled.
    var cancel: TextField?
    var history: [HistoryRow]
}

/// `/admin/products`: each product with its stock and price form.
struct AdminProductsModel: Sendable {
    struct Row: Sendable {
        var id: Int
        var name: String
        var url: String
        var formURL: String
        /// Where its photo form posts.
        var photoFormURL: String
        var stock: String
        /// The stock in the database when the page was made, sent back so a change never
        /// overwrites a sale made meanwhile.
        var expectedStock: Int
        var price: String
        var stockError: String?
        var priceError: String?
        var page: Int
    }

    var rows: [Row]
    var pageLabel: String
    var previousURL: String?
    var nextURL: String?
}

/// One order confirmation that was not sent, as `/admin/mail` lists it.
struct AdminDeadLetterRow: Sendable {
    var id: Int
    var orderID: Int?
    var orderURL: String
    var recipients: String
    var reason: String
    var attempts: Int
    var madeOn: String
    var madeISO: String
    /// The address field: what was submitted, else the account's address now.
    var address: String
    var error: String?
    var resendURL: String
    var discardURL: String

    init(_ unsent: UnsentConfirmation, address submitted: String?, error: String?) {
        id = Int(unsent.id)
        orderID = unsent.orderID
        orderURL = unsent.orderID.map { BackOfficeRoutes.order.path($0) } ?? ""
        recipients = unsent.letter.recipients.joined(separator: ", ")
        reason = unsent.letter.reason
        attempts = unsent.letter.attempts
        madeOn = AdminDates.text(unsent.letter.createdAt)
        madeISO = AdminDates.iso(unsent.letter.createdAt)
        address = submitted ?? unsent.currentAddress ?? ""
        self.error = error
        resendURL = BackOfficeRoutes.resendMail.path(id)
        discardURL = BackOfficeRoutes.discardMail.path(id)
    }
}

/// `/admin/mail`: the unsent confirmations.
struct AdminMailModel: Sendable {
    var rows: [AdminDeadLetterRow]
    var isEmpty: Bool
}

/// One member of staff, as `/admin/staff` lists them.
struct AdminStaffRow: Sendable {
    var id: Int
    var name: String
    var email: String
    /// Whether the form to take their rights is shown: not for the member of staff looking, who
    /// would lock themselves out.
    var isRevocable: Bool
    var revokeURL: String
}

/// `/admin/staff`: who is staff, and the form to give an account staff rights.
struct AdminStaffModel: Sendable {
    var rows: [AdminStaffRow]
    /// The grant form's e-mail and its error, when it came back.
    var email: String
    var error: String?
}
