import Foundation

/// An order: what was bought at which price, and where it is in its life. Prices are copied from
/// the catalog when the order is placed, in integer minor units, so later price changes never
/// rewrite an order.
public struct Order: Sendable, Equatable, Identifiable {
    public var id: Int
    public var userID: Int
    public var status: OrderStatus
    public var placedAt: Date
    public var lines: [OrderLine]
    public var totalMinor: Int { lines.reduce(0) { $0 + $1.totalMinor } }
    public var itemCount: Int { lines.reduce(0) { $0 + $1.quantity } }
    public var payment: Payment?
    public var trackingNumber: String?
    public var cancellationReason: String?
    public var review: Review?

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

public struct OrderLine: Sendable, Equatable {
    public var productID: Int
    public var productName: String
    public var unitPriceMinor: Int
    public var quantity: Int
    public var totalMinor: Int { unitPriceMinor * quantity }

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
    public var reference: String
    public var idempotencyKey: String
    public var amountMinor: Int
    public var paidAt: Date

    public init(reference: String, idempotencyKey: String, amountMinor: Int, paidAt: Date) {
        self.reference = reference
        self.idempotencyKey = idempotencyKey
        self.amountMinor = amountMinor
        self.paidAt = paidAt
    }
}

public struct Review: Sendable, Equatable {
    public var rating: Int
    public var text: String
    public var reviewedAt: Date

    public init(rating: Int, text: String, reviewedAt: Date) {
        self.rating = rating
        self.text = text
        self.reviewedAt = reviewedAt
    }
}

/// One purchase of a product, for the product page's "your purchases" region.
public struct Purchase: Sendable, Equatable {
    public var orderID: Int
    public var placedAt: Date
    public var quantity: Int
    public var status: OrderStatus
}
