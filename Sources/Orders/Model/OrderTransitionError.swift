import Tessera

/// A transition the state machine refuses: paying a cancelled order, reviewing an unfinished one.
public struct OrderTransitionError: HTTPResponseError, Equatable, CustomStringConvertible {
    /// The status the order was in.
    public let from: OrderStatus
    /// What was asked of it.
    public let event: OrderEvent

    /// A conflict with the order's current state.
    public var status: HTTPResponse.Status { .conflict }

    /// The refusal in words, safe to show: it names only the status and the event.
    public var publicMessage: String { description }

    /// An explanation a shopper can act on.
    public var description: String {
        let state = from.label.lowercased()
        return switch (from, event) {
        case (.completed, .review): "This order already has a review."
        case (_, .review): "Only a completed order can be reviewed; this one is \(state)."
        case (.paid, .pay), (.shipped, .pay), (.completed, .pay): "This order is already paid."
        default: "An order that is \(state) cannot be \(event.verb)."
        }
    }
}
