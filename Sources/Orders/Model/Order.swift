public import Foundation

/// An order: what was bought at which price, and where it is in its life. Prices are copied from
/// the catalog when the order is placed, in integer minor units, so later price changes never
/// rewrite an order.
public struct Order: Sendable, Equatable, Identifiable {
    /// The order's number, shown to the shopper as #id and in its URL.
    public var id: Int
    /// The account that placed it: only that shopper, and staff, may see it.
    public var userID: Int
    /// Where the order is in its life; only the state machine (`OrderStatus.applying`) moves it.
    public var status: OrderStatus
    /// When checkout committed it; lists show the newest first.
    public var placedAt: Date
    /// What was bought, at the prices of that moment.
    public var lines: [OrderLine]
    /// The sum of the lines, in cents; computed, never stored, so it cannot disagree with them.
    public var totalMinor: Int { lines.reduce(0) { $0 + $1.totalMinor } }
    /// How many items, all lines together, for "3 items".
    public var itemCount: Int { lines.reduce(0) { $0 + $1.quantity } }
    /// The one charge, once paid.
    public var payment: Payment?
    /// The carrier's number, once shipped.
    public var trackingNumber: String?
    /// Why it was cancelled, in words the shopper reads.
    public var cancellationReason: String?
    /// The shopper's review, once the order is completed and reviewed.
    public var review: Review?

    /// An order as a store reads it, or as tests make one; checkout makes new ones through the service.
    public init(
        id: Int, userID: Int, status: OrderStatus, placedAt: Date, lines: [OrderLine],
        payment: Payment? = nil, trackingNumber: String? = nil, cancellationReason: String? = nil, review: Review? = nil
    ) {
        self.id = id
        self.userID = userID
        self.status = status
        self.placedAt = placedAt
        self.lines = lines
        self.payment = payment
        self.trackingNumber = trackingNumber
        self.cancellationReason = cancellationReason
        self.review = review
    }
}

/// One product of an order, with its name and price copied at checkout: a renamed or repriced product leaves it as it was.
public struct OrderLine: Sendable, Equatable {
    /// The product, for links back to its page.
    public var productID: Int
    /// The name at checkout.
    public var productName: String
    /// The price at checkout, in cents.
    public var unitPriceMinor: Int
    /// How many, at least 1.
    public var quantity: Int
    /// The line's total, in cents.
    public var totalMinor: Int { unitPriceMinor * quantity }

    /// A line as a store reads it, or as checkout copies it from the cart.
    public init(productID: Int, productName: String, unitPriceMinor: Int, quantity: Int) {
        self.productID = productID
        self.productName = productName
        self.unitPriceMinor = unitPriceMinor
        self.quantity = quantity
    }
}

/// The one charge of an order. Its key is the idempotency key of the pay form that made it, so
/// a second submission of the same form finds it instead of charging again.
public struct Payment: Sendable, Equatable {
    /// The payment's reference, as a receipt shows it.
    public var reference: String
    /// The pay form's key: a second submission with it finds this payment instead of charging.
    public var idempotencyKey: String
    /// What was charged, in cents: the order's total at that moment.
    public var amountMinor: Int
    /// When the charge was recorded.
    public var paidAt: Date

    /// A payment as a store reads it, or as the service records one.
    public init(reference: String, idempotencyKey: String, amountMinor: Int, paidAt: Date) {
        self.reference = reference
        self.idempotencyKey = idempotencyKey
        self.amountMinor = amountMinor
        self.paidAt = paidAt
    }
}

/// A shopper's review of a completed order, one per order.
public struct Review: Sendable, Equatable {
    /// From 1 to 5, checked by the review form.
    public var rating: Int
    /// What the shopper wrote; escaped wherever it is shown.
    public var text: String
    /// When it was written.
    public var reviewedAt: Date

    /// A review as a store reads it, or as the service records one.
    public init(rating: Int, text: String, reviewedAt: Date) {
        self.rating = rating
        self.text = text
        self.reviewedAt = reviewedAt
    }
}

/// One purchase of a product, for the product page's "your purchases" region.
public struct Purchase: Sendable, Equatable {
    /// The order it was in, for a link to it.
    public var orderID: Int
    /// When that order was placed.
    public var placedAt: Date
    /// How many of the product that order had.
    public var quantity: Int
    /// The order's status now, so a cancelled purchase says so.
    public var status: OrderStatus
}
