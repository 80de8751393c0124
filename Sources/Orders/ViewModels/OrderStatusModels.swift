import Catalog
import Foundation
import Tessera
import TesseraViews

// What each child of the order page's `status` region shows.

/// An order that can be paid: the pay form carries a fresh idempotency key, so submitting that
/// same form twice charges once.
struct PayableOrder: Sendable {
    var order: OrderSummary
    var payURL: String
    var idempotencyKey: String
    var cancellation: CancelForm

    init(_ order: Order, cancellation: CancelForm? = nil) {
        self.order = OrderSummary(order)
        payURL = OrdersRoutes.pay.path(order.id)
        idempotencyKey = UUID().uuidString.lowercased()
        self.cancellation = cancellation ?? CancelForm(order)
    }
}

struct CancelForm: Sendable {
    var url: String
    var reason: String
    var error: String?

    init(_ order: Order, reason: String = "", error: String? = nil) {
        url = OrdersRoutes.cancel.path(order.id)
        self.reason = reason
        self.error = error
    }
}

struct PaidOrder: Sendable {
    var amount: Price
    var amountMinor: Int
    var paidOn: LocalizedDate
    var paidISO: String
    var reference: String
    var cancellation: CancelForm

    init(_ order: Order, cancellation: CancelForm?) {
        // A paid order always has its payment: the store writes both in one transaction.
        let payment = order.payment ?? Payment(reference: "—", idempotencyKey: "", amountMinor: order.totalMinor, paidAt: order.placedAt)
        amount = Price(minor: payment.amountMinor)
        amountMinor = payment.amountMinor
        paidOn = LocalizedDate(payment.paidAt)
        paidISO = DisplayDate.iso(payment.paidAt)
        reference = payment.reference
        self.cancellation = cancellation ?? CancelForm(order)
    }
}

struct ShippedOrder: Sendable {
    var trackingNumber: String
    var confirmURL: String
}

struct CompletedOrder: Sendable {
    struct ShownReview: Sendable {
        var rating: Int
        /// `★★★★☆`: for the eye only, hidden from screen readers.
        var stars: String
        /// `Rated 4 out of 5`: what a screen reader says instead of the stars.
        var ratingText: LocalizedText
        var text: String
        var reviewedOn: LocalizedDate
        var reviewedISO: String
    }

    struct RatingOption: Sendable {
        var value: Int
        var label: LocalizedText
        var isSelected: Bool
    }

    var review: ShownReview?
    var reviewURL: String
    var ratingOptions: [RatingOption]
    var text: String
    var ratingError: String?
    var textError: String?

    init(_ order: Order, form: FormState) {
        review = order.review.map {
            ShownReview(
                rating: $0.rating, stars: String(repeating: "★", count: $0.rating) + String(repeating: "☆", count: 5 - $0.rating),
                ratingText: Messages.completedRated.text(["rating": $0.rating]), text: $0.text, reviewedOn: LocalizedDate($0.reviewedAt),
                reviewedISO: DisplayDate.iso($0.reviewedAt))
        }
        reviewURL = OrdersRoutes.review.path(order.id)
        let chosen = form.values["rating"] ?? "5"
        ratingOptions = (1...5).reversed().map { value in
            RatingOption(value: value, label: Messages.completedStars.text(count: value), isSelected: String(value) == chosen)
        }
        text = form.values["text"] ?? ""
        ratingError = form.errors["rating"]
        textError = form.errors["text"]
    }
}

struct CancelledOrder: Sendable {
    var reason: String
    var settlement: String
}
