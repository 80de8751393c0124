public import Tessera
public import TesseraViews

/// A transition the state machine refuses: paying a cancelled order, reviewing an unfinished one.
public struct OrderTransitionError: LocalizedResponseError, Equatable, CustomStringConvertible {
    /// The status the order was in.
    public let from: OrderStatus
    /// What was asked of it.
    public let event: OrderEvent

    /// A conflict with the order's current state.
    public var status: HTTPResponse.Status { .conflict }

    /// The refusal in English, safe to show: it names only the status and the event.

    /// An explanation a shopper can act on, in `language`.
    public func publicMessage(in language: Language) -> String {
        let state: KeyValuePairs<String, any HTMLOutputConvertible & Sendable> = ["state": from.localizedLabel]
        return switch (from, event) {
        case (.completed, .review): Messages.transitionAlreadyReviewed.string(in: language)
        case (_, .review): Messages.transitionReviewUnfinished.string(in: language, state)
        case (.paid, .pay), (.shipped, .pay), (.completed, .pay): Messages.transitionAlreadyPaid.string(in: language)
        case (_, .pay): Messages.transitionCannotPay.string(in: language, state)
        case (_, .ship): Messages.transitionCannotShip.string(in: language, state)
        case (_, .confirmReceipt): Messages.transitionCannotConfirm.string(in: language, state)
        case (_, .cancel): Messages.transitionCannotCancel.string(in: language, state)
        }
    }

    /// The refusal in English.
    public var description: String { publicMessage }
}
