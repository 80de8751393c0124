/// Something that happens to an order. Each event moves it along ``OrderStatus/applying(_:)``.
public enum OrderEvent: Sendable, Equatable {
    case pay
    case ship
    case confirmReceipt
    case cancel
    case review
}
