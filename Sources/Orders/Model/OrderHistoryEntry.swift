public import Foundation

/// One change of an order, kept for good: who made it, when, what it was. The back office shows
/// an order's history; it is written in the transaction that makes the change, so a change
/// never lands without its entry.
public struct OrderHistoryEntry: Sendable, Equatable {
    /// When the change committed.
    public let at: Date
    /// Who made it.
    public let actor: OrderChangeAuthor
    /// `placed`, `paid`, `shipped`, `received`, `cancelled` or `reviewed`.
    public let action: String
    /// The tracking number, the reason, the payment's reference…; `nil` when there is nothing to add.
    public let detail: String?

    /// An entry as a store reads it; the service writes them with each change.
    public init(at: Date, actor: OrderChangeAuthor, action: String, detail: String?) {
        self.at = at
        self.actor = actor
        self.action = action
        self.detail = detail
    }

    /// The entry for `change`.
    init(_ change: OrderChange, at date: Date, by actor: OrderChangeAuthor) {
        let (action, detail): (String, String?) =
            switch change {
            case .payment(let payment): ("paid", payment.reference)
            case .shipment(let trackingNumber): ("shipped", trackingNumber)
            case .receipt: ("received", nil)
            case .cancellation(let reason): ("cancelled", reason)
            case .review(let review): ("reviewed", "\(review.rating) of 5")
            }
        self.init(at: date, actor: actor, action: action, detail: detail)
    }
}
