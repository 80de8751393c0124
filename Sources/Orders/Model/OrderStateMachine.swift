/// The order state machine, in one place:
///
///     awaiting_payment ─pay→ paid ─ship→ shipped ─confirmReceipt→ completed ─review→ completed
///            └──────cancel──────┴─cancel→ cancelled
///
/// Services ask it before every change; nothing else decides whether a transition is allowed.
extension OrderStatus {
    /// The status after `event`, or the typed refusal that the web layer answers with 409.
    public func applying(_ event: OrderEvent) throws(OrderTransitionError) -> OrderStatus {
        switch (self, event) {
        case (.awaitingPayment, .pay): return .paid
        case (.paid, .ship): return .shipped
        case (.shipped, .confirmReceipt): return .completed
        case (.completed, .review): return .completed
        case (.awaitingPayment, .cancel), (.paid, .cancel): return .cancelled
        default: throw OrderTransitionError(from: self, event: event)
        }
    }
}
