public import TesseraViews

/// Where an order is in its life. The raw values are the scraping contract's
/// `data-order-status` values and what the database stores.
public enum OrderStatus: String, Sendable, CaseIterable, Codable {
    case awaitingPayment = "awaiting_payment"
    case paid
    case shipped
    case completed
    case cancelled

    /// The words a shopper reads, in the page's language.
    public var localizedLabel: LocalizedText {
        switch self {
        case .awaitingPayment: Messages.statusAwaitingPayment.text()
        case .paid: Messages.statusPaid.text()
        case .shipped: Messages.statusShipped.text()
        case .completed: Messages.statusCompleted.text()
        case .cancelled: Messages.statusCancelled.text()
        }
    }

    /// The words in English, for logs and error messages.
    public var label: String {
        switch self {
        case .awaitingPayment: "Awaiting payment"
        case .paid: "Paid, awaiting shipment"
        case .shipped: "Shipped"
        case .completed: "Completed"
        case .cancelled: "Cancelled"
        }
    }
}
