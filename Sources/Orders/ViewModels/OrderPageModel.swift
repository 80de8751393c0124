import Tessera

/// The order page: the order and its items; the status region has its own models.
struct OrderPageModel: Sendable {
    var order: OrderSummary
    var items: LineItems
}
