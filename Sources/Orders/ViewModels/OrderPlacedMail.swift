import Foundation
import TesseraViews

/// What the order confirmation says, for its HTML part (`mail/order_placed.html`) and its text
/// part (`mail/order_placed.txt`), in the language the buyer checked out in.
struct OrderPlacedMail: Sendable {
    var buyerName: String
    var orderID: Int
    /// The order's page, in full: a mail has no site to be relative to.
    var orderURL: String
    var items: LineItems
    var placedOn: LocalizedDate
    /// `<html lang>` of the HTML part.
    var languageCode: String
}
