import Catalog
public import Foundation
public import Tessera
public import TesseraViews

/// The orders' rules: checkout from a cart, who may see an order, and every status change, which
/// the state machine (``OrderStatus/applying(_:)``) must allow first. Controllers call this; it
/// reads through an ``OrderStore`` and changes orders through ``OrderTransactions``, and once a
/// change is committed publishes what it changed (``OrdersTopics``, ``CatalogTopics``), so open
/// pages show it.
public struct OrderService: Sendable {
    let store: any OrderStore
    let transactions: any OrderTransactions
    let cart: CartService
    let topics: any TopicPublisher
    let confirmations: OrderConfirmations?
    let now: @Sendable () -> Date

    /// The orders' rules over `store` for reads and `transactions` for every change, with the
    /// cart that checkout empties; with `confirmations`, checkout also puts the buyer's
    /// confirmation in the mail outbox.
    public init(
        store: any OrderStore, transactions: any OrderTransactions, cart: CartService, topics: any TopicPublisher,
        confirmations: OrderConfirmations? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.topics = topics
        self.confirmations = confirmations
        self.store = store
        self.transactions = transactions
        self.cart = cart
        self.now = now
    }

    /// Turns the cart into an order awaiting payment, once per checkout form: `checkoutNumber`
    /// is the number the form was given (``nextCheckoutNumber(for:)``), and a second submission
    /// of the same form (a double click, a retry after a timeout, a second tab) gets the order
    /// the first one placed, not another. Stock is checked and reserved in the same transaction
    /// that creates the order and empties the cart. An empty cart, a line over the stock or a
    /// form older than the shopper's last checkout is a ``CheckoutError``, and nothing changes.
    /// The confirmation mail, if the service sends them, is written to the outbox in the same
    /// transaction, linking to the order on `site` (`https://shop.example.com`), in `language`.
    public func checkout(
        cartID: String?, userID: Int, checkoutNumber: Int, by actor: OrderChangeAuthor, site: String = "",
        language: Language = .english, within budget: DatabaseBudget
    ) async throws -> CheckoutOutcome {
        let lines: [(productID: Int, quantity: Int)] =
            if let cartID {
                try await cart.cart(cartID, within: budget).lines.map { ($0.product.id, $0.quantity) }
            } else {
                []
            }
        let confirmations = self.confirmations
        let buyer = try await confirmations?.recipient(userID: userID, within: budget)
        let date = now()
        let (outcome, unsendable) = try await runChecked(within: budget) { stores -> (CheckoutOutcome, String?) in
            try stores.orders.lockCheckouts(of: userID)
            if let placed = try stores.orders.order(placedBy: userID, checkoutNumber: checkoutNumber) {
                return (.alreadyPlaced(orderID: placed), nil)
            }
            guard checkoutNumber == (try stores.orders.lastCheckoutNumber(of: userID)) + 1 else { throw CheckoutError.outdatedForm }
            guard !lines.isEmpty else { throw CheckoutError.emptyCart }
            let order = try Self.place(lines, userID: userID, checkoutNumber: checkoutNumber, clearingCart: cartID, at: date, by: actor, in: stores)
            guard let confirmations, let buyer else { return (.placed(order, unmailable: nil), nil) }
            guard let reason = try confirmations.enqueue(for: order, to: buyer, site: site, language: language, in: stores.mail) else {
                return (.placed(order, unmailable: nil), nil)
            }
            if case .unusable(let address, _) = buyer { return (.placed(order, unmailable: address), reason) }
            return (.placed(order, unmailable: nil), reason)
        }
        if case .placed(let order, _) = outcome {
            if let unsendable { confirmations?.reportUnsendable(order, reason: unsendable) }
            published(order)
        }
        return outcome
    }

    /// What a checkout did.
    public enum CheckoutOutcome: Sendable {
        /// A new order; `unmailable` is the buyer's address when its confirmation could not be
        /// made (a dead letter for staff), so the page can tell the buyer at once.
        case placed(Order, unmailable: String?)
        /// The form had placed this order already.
        case alreadyPlaced(orderID: Int)
    }

    /// The number a checkout form shows now gets for its order: one more than the shopper's last.
    public func nextCheckoutNumber(for userID: Int, within budget: DatabaseBudget) async throws -> Int {
        try await store.nextCheckoutNumber(userID: userID, within: budget)
    }

    /// Reserves every line's stock at the catalog's current prices, creates the order and empties
    /// the cart, in one transaction: for orders no checkout form placed (the demo data).
    func placeOrder(
        userID: Int, lines: [(productID: Int, quantity: Int)], clearingCart cartID: String?, at date: Date,
        by actor: OrderChangeAuthor, within budget: DatabaseBudget
    ) async throws -> Order {
        let order = try await runChecked(within: budget) { stores in
            try Self.place(lines, userID: userID, checkoutNumber: nil, clearingCart: cartID, at: date, by: actor, in: stores)
        }
        published(order)
        return order
    }

    private static func place(
        _ lines: [(productID: Int, quantity: Int)], userID: Int, checkoutNumber: Int?, clearingCart cartID: String?,
        at date: Date, by actor: OrderChangeAuthor, in stores: OrderTransactionStores
    ) throws -> Order {
        let orderLines = try lines.map { line in
            let product = try stores.stock.reserve(line.quantity, of: line.productID)
            return OrderLine(productID: product.id, productName: product.name, unitPriceMinor: product.priceMinor, quantity: line.quantity)
        }
        let id = try stores.orders.insertOrder(userID: userID, lines: orderLines, at: date, checkoutNumber: checkoutNumber)
        try stores.orders.record(OrderHistoryEntry(at: date, actor: actor, action: "placed", detail: nil), orderID: id)
        if let cartID { try stores.carts.empty(cart: cartID) }
        return Order(id: id, userID: userID, status: .awaitingPayment, placedAt: date, lines: orderLines)
    }

    /// Tells open pages about a new order, once it is committed.
    private func published(_ order: Order) {
        topics.publish(order.lines.map { CatalogTopics.product($0.productID) } + [OrdersTopics.ordersOf(order.userID)])
    }

    /// Runs `body` in one order transaction, with a stock shortage told as the checkout's refusal.
    private func runChecked<T: Sendable>(
        within budget: DatabaseBudget, _ body: @escaping @Sendable (OrderTransactionStores) throws -> T
    ) async throws -> T {
        do {
            return try await transactions.run(within: budget, body)
        } catch let shortage as StockShortage {
            switch shortage {
            case .unknownProduct: throw CheckoutError.stock(.productGone)
            case .insufficient(let name, 0): throw CheckoutError.stock(.soldOut(product: name))
            case .insufficient(let name, let available): throw CheckoutError.stock(.onlyInStock(available, product: name))
            }
        }
    }

    /// The order, if it belongs to `userID`. Someone else's order is as absent as a missing one.
    public func order(_ id: Int, of userID: Int, within budget: DatabaseBudget) async throws -> Order? {
        guard let order = try await store.order(id: id, within: budget), order.userID == userID else { return nil }
        return order
    }

    /// Any order, whoever's: for staff, whose access the back office checks.
    public func anyOrder(_ id: Int, within budget: DatabaseBudget) async throws -> Order? {
        try await store.order(id: id, within: budget)
    }

    /// Every shopper's orders, newest first (the latest 200), for staff.
    public func allOrders(status: OrderStatus?, within budget: DatabaseBudget) async throws -> [Order] {
        try await store.allOrders(status: status, limit: 200, within: budget)
    }

    /// Who changed the order, and when, oldest first.
    public func history(of order: Order, within budget: DatabaseBudget) async throws -> [OrderHistoryEntry] {
        try await store.history(orderID: order.id, within: budget)
    }

    /// The shopper's orders, newest first, optionally of one status.
    public func orders(of userID: Int, status: OrderStatus?, within budget: DatabaseBudget) async throws -> [Order] {
        try await store.orders(userID: userID, status: status, within: budget)
    }

    /// The shopper's orders of one product, for its page's "your purchases" region.
    public func purchases(of productID: Int, by userID: Int, within budget: DatabaseBudget) async throws -> [Purchase] {
        try await store.purchases(userID: userID, productID: productID, within: budget)
    }

    /// What a payment did, so the page can say "paid" or "already paid" truthfully.
    public enum PaymentOutcome: Sendable, Equatable {
        /// This submission charged the order.
        case charged(Order)
        /// This pay form was submitted before: the earlier charge stands and nothing new is charged.
        case alreadyCharged(Order)
    }

    /// Pays the order (simulated). Idempotent: the key comes from the pay form, so submitting the
    /// same form twice — a double click, a retried request — charges once.
    public func pay(
        _ order: Order, idempotencyKey key: String, by actor: OrderChangeAuthor, within budget: DatabaseBudget
    ) async throws -> PaymentOutcome {
        var order = order
        while true {
            if let payment = order.payment, payment.idempotencyKey == key { return .alreadyCharged(order) }
            let next = try order.status.applying(.pay)
            let payment = Payment(reference: Self.reference("PAY"), idempotencyKey: key, amountMinor: order.totalMinor, paidAt: now())
            if try await record(order, movingTo: next, .payment(payment), by: actor, within: budget) {
                return .charged(try await reloaded(order, within: budget))
            }
            order = try await reloaded(order, within: budget)  // another request moved it: decide again from the new state
        }
    }

    /// Ships a paid order with the carrier's tracking number (checked by ``TrackingNumber``), or
    /// with a new one of the shop's (the demo data).
    public func ship(
        _ order: Order, trackingNumber: TrackingNumber? = nil, by actor: OrderChangeAuthor, within budget: DatabaseBudget
    ) async throws -> Order {
        try await transition(
            order, .ship, recording: .shipment(trackingNumber: trackingNumber?.text ?? Self.reference("TRK")), by: actor, within: budget)
    }

    /// The shopper says a shipped order arrived: it is completed, and may be reviewed.
    public func confirmReceipt(_ order: Order, by actor: OrderChangeAuthor, within budget: DatabaseBudget) async throws -> Order {
        try await transition(order, .confirmReceipt, recording: .receipt, by: actor, within: budget)
    }

    /// Cancels the order and puts its items back in stock; a blank reason is recorded as the shopper's choice.
    public func cancel(_ order: Order, reason: String, by actor: OrderChangeAuthor, within budget: DatabaseBudget) async throws -> Order {
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        let fallback = actor.isStaff ? "Cancelled by the shop." : "Cancelled by the shopper."
        return try await transition(order, .cancel, recording: .cancellation(reason: reason.isEmpty ? fallback : reason), by: actor, within: budget)
    }

    /// Whether the order may get a review: completed, and not reviewed yet.
    public func checkReviewable(_ order: Order) throws(OrderTransitionError) {
        _ = try order.status.applying(.review)
        if order.review != nil { throw OrderTransitionError(from: order.status, event: .review) }
    }

    /// Records the review of a completed order; a second one is refused by the state machine.
    public func review(_ order: Order, rating: Int, text: String, by actor: OrderChangeAuthor, within budget: DatabaseBudget) async throws -> Order {
        try await transition(order, .review, recording: .review(Review(rating: rating, text: text, reviewedAt: now())), by: actor, within: budget)
    }

    /// Applies `event` if the state machine allows it from the order's current state. When another
    /// request changed the order in between, the decision is made again from the new state.
    func transition(
        _ order: Order, _ event: OrderEvent, recording change: OrderChange, by actor: OrderChangeAuthor, within budget: DatabaseBudget
    ) async throws -> Order {
        var order = order
        while true {
            let next = try order.status.applying(event)
            if event == .review { try checkReviewable(order) }
            if try await record(order, movingTo: next, change, by: actor, within: budget) {
                return try await reloaded(order, within: budget)
            }
            order = try await reloaded(order, within: budget)
        }
    }

    /// Moves the order if it is still where the caller saw it, with its history entry; a
    /// cancellation puts its items back in stock in the same transaction.
    func record(
        _ order: Order, movingTo status: OrderStatus, _ change: OrderChange, by actor: OrderChangeAuthor, within budget: DatabaseBudget
    ) async throws -> Bool {
        let entry = OrderHistoryEntry(change, at: now(), by: actor)
        let moved = try await transactions.run(within: budget) { stores in
            guard try stores.orders.update(orderID: order.id, from: order.status, to: status, recording: change) else { return false }
            try stores.orders.record(entry, orderID: order.id)
            if case .cancellation = change {
                for line in order.lines { try stores.stock.release(line.quantity, of: line.productID) }
            }
            return true
        }
        guard moved else { return false }
        var changed = [OrdersTopics.order(order.id), OrdersTopics.ordersOf(order.userID)]
        if case .cancellation = change { changed += order.lines.map { CatalogTopics.product($0.productID) } }
        topics.publish(changed)
        return true
    }

    func reloaded(_ order: Order, within budget: DatabaseBudget) async throws -> Order {
        guard let fresh = try await store.order(id: order.id, within: budget) else { throw OrderVanished(id: order.id) }
        return fresh
    }

    /// Orders are never deleted; a store that loses one mid-request is broken.
    struct OrderVanished: Error {
        let id: Int
    }

    /// `PAY-3F9A1C0B7D2E`: a reference a shopper can quote.
    static func reference(_ prefix: String) -> String {
        prefix + "-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12)
    }
}
