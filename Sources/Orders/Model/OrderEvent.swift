/// Something that happens to an order. Each event moves it along ``OrderStatus/applying(_:)``.
public enum OrderEvent: Sendable, Equatable {
    case pay
    case ship
    case confirmReceipt
    case cancel
    case review

    /// The event as a shopper would name it, for the message of a refused transition.
    var verb: String {
        switch self {
        case .pay: "paid"
        case .ship: "shipped"
        case .confirmReceipt: "confirmed as received"
        case .cancel: "cancelled"
        case .review: "reviewed"
        }
    }
}
