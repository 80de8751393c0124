import Foundation

/// What the order confirmation says, for its HTML part (`mail/order_placed.html`) and its text
/// part (`mail/order_placed.txt`).
struct OrderPlacedMail: Sendable {
    var buyerName: String
    var orderID: Int
    /// The order's page, in full: a mail has no site to be relative to.
    var orderURL: String
    var items: LineItems
    var placedAt: Date
}
