import Catalog
import Foundation
import PostgresTestSupport
import Synchronization
import Tessera
import Testing

@testable import Orders
@testable import Storefront

/// The order service's rules, with requests racing, on each database the shop runs on: a
/// conformance suite for the stores (``StoreKind``).
@Suite struct OrderServiceTests {
    static let shopper = OrderChangeAuthor.shopper("Test shopper")

    struct Shop {
        let database: ShopDatabase
        var catalog: CatalogService { database.services.catalog }
        var cart: CartService { database.services.cart }
        var orders: OrderService { database.services.orders }

        /// Runs `body` on a new database of `kind` with the demo catalog, removed afterwards.
        static func with(_ kind: StoreKind, _ body: (Shop) async throws -> Void) async throws {
            let database = try await ShopDatabase.make(kind)
            do {
                try await database.seedCatalog()
                try await body(Shop(database: database))
            } catch {
                await database.remove()
                throw error
            }
            await database.remove()
        }

        func stock(_ productID: Int) async throws -> Int {
            try await catalog.product(id: productID, within: .outsideRequest).stock
        }

        /// Checks the cart out as a fresh checkout page would: with the shopper's next checkout
        /// number; the order must be new.
        func place(_ cartID: String, userID: Int, by actor: OrderChangeAuthor) async throws -> Order {
            let number = try await orders.nextCheckoutNumber(for: userID, within: .outsideRequest)
            guard
                case .placed(let order, _) = try await orders.checkout(
                    cartID: cartID, userID: userID, checkoutNumber: number, by: actor, within: .outsideRequest)
            else {
                throw CheckoutError.outdatedForm
            }
            return order
        }

        /// A cart holding `quantity` of the product, as a shopper would fill it.
        func cart(with quantity: Int, of productID: Int) async throws -> String {
            let id = UUID().uuidString
            _ = try await cart.add(quantity, of: productID, to: id, within: .outsideRequest)
            return id
        }
    }

    @Test(arguments: StoreKind.allCases)
    func checkoutsRacingForTheLastItemsSellThemOnce(_ kind: StoreKind) async throws {
        try await Shop.with(kind) { shop in
            let available = try await shop.stock(1)
            // Eight shoppers each want all of it; their carts were filled while it was in stock.
            var carts: [String] = []
            for _ in 0..<8 { carts.append(try await shop.cart(with: available, of: 1)) }
            let results = await withTaskGroup(of: Result<Order, any Error>.self) { group in
                for (user, cart) in carts.enumerated() {
                    group.addTask { await Result { try await shop.place(cart, userID: user + 1, by: Self.shopper) } }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let placed = results.compactMap { try? $0.get() }
            #expect(placed.count == 1, "exactly one shopper gets the stock")
            #expect(placed.first?.lines.first?.quantity == available)
            #expect(try await shop.stock(1) == 0, "never below zero")
            for case .failure(let problem) in results {
                #expect(problem as? CheckoutError == .stock(.soldOut(product: try await shop.catalog.product(id: 1, within: .outsideRequest).name)))
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anOrderKeepsThePriceItWasPlacedAtAndCancellingRestocks(_ kind: StoreKind) async throws {
        try await Shop.with(kind) { shop in
            let before = try await shop.stock(2)
            let price = try await shop.catalog.product(id: 2, within: .outsideRequest).priceMinor
            let placed = try await shop.place(try await shop.cart(with: 3, of: 2), userID: 1, by: Self.shopper)
            #expect(placed.totalMinor == price * 3)
            try await shop.database.doublePrice(of: 2)
            let reloaded = try #require(try await shop.orders.order(placed.id, of: 1, within: .outsideRequest))
            #expect(reloaded.totalMinor == price * 3, "a later price change does not rewrite the order")
            #expect(try await shop.orders.order(placed.id, of: 2, within: .outsideRequest) == nil, "another user's order is not found")

            #expect(try await shop.stock(2) == before - 3)
            let cancelled = try await shop.orders.cancel(reloaded, reason: "  ", by: Self.shopper, within: .outsideRequest)
            #expect(cancelled.status == .cancelled)
            #expect(cancelled.cancellationReason == "Cancelled by the shopper.", "a blank reason")
            #expect(try await shop.stock(2) == before)
            await #expect(throws: OrderTransitionError(from: .cancelled, event: .cancel)) {
                try await shop.orders.cancel(cancelled, reason: "again", by: Self.shopper, within: .outsideRequest)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func changesArePublishedOnceCommittedAndNeverBefore(_ kind: StoreKind) async throws {
        try await Shop.with(kind) { shop in
            let placed = try await shop.place(try await shop.cart(with: 2, of: 5), userID: 7, by: Self.shopper)
            #expect(shop.database.topics.published.last == [CatalogTopics.product(5), OrdersTopics.ordersOf(7)], "stock and the shopper's list")

            let seen = Mutex<[String?]>([])
            let database = shop.database
            database.topics.onPublish { topics in
                if topics.contains(OrdersTopics.order(placed.id)) { seen.withLock { $0.append(try? database.committedStatus(of: placed.id)) } }
            }
            guard case .charged(let paid) = try await shop.orders.pay(placed, idempotencyKey: "k", by: Self.shopper, within: .outsideRequest) else {
                Issue.record("not charged")
                return
            }
            let shipped = try await shop.orders.ship(paid, by: .staff("Test staff"), within: .outsideRequest)
            #expect(seen.withLock { $0 } == ["paid", "shipped"], "each publish came after its commit")

            // A transition the state machine refuses commits nothing, and publishes nothing.
            let count = database.topics.published.count
            await #expect(throws: OrderTransitionError.self) {
                try await shop.orders.cancel(shipped, reason: "late", by: Self.shopper, within: .outsideRequest)
            }
            #expect(database.topics.published.count == count)

            // Cancelling puts stock back: the product is published with the order.
            let another = try await shop.place(try await shop.cart(with: 1, of: 6), userID: 7, by: Self.shopper)
            _ = try await shop.orders.cancel(another, reason: "changed my mind", by: Self.shopper, within: .outsideRequest)
            #expect(database.topics.published.last == [OrdersTopics.order(another.id), OrdersTopics.ordersOf(7), CatalogTopics.product(6)])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func everyChangeIsInTheOrdersHistoryWithWhoMadeIt(_ kind: StoreKind) async throws {
        try await Shop.with(kind) { shop in
            let first = try await shop.place(try await shop.cart(with: 1, of: 2), userID: 3, by: Self.shopper)
            let placed = try await shop.place(try await shop.cart(with: 1, of: 3), userID: 4, by: .shopper("Grace"))
            guard case .charged(let paid) = try await shop.orders.pay(placed, idempotencyKey: "h", by: .shopper("Grace"), within: .outsideRequest)
            else {
                Issue.record("not charged")
                return
            }
            let tracking = try #require(TrackingNumber(" 1z-999 ".replacingOccurrences(of: " ", with: "") + "AA1"))
            #expect(tracking.text == "1Z-999AA1")
            let shipped = try await shop.orders.ship(paid, trackingNumber: tracking, by: .staff("Sam"), within: .outsideRequest)
            #expect(shipped.trackingNumber == "1Z-999AA1")
            await #expect(throws: OrderTransitionError.self) {
                try await shop.orders.cancel(shipped, reason: "late", by: .staff("Sam"), within: .outsideRequest)
            }

            let history = try await shop.orders.history(of: shipped, within: .outsideRequest)
            #expect(history.map(\.action) == ["placed", "paid", "shipped"], "a refused change leaves no entry")
            #expect(history.map(\.actor) == [.shopper("Grace"), .shopper("Grace"), .staff("Sam")])
            #expect(history.last?.detail == "1Z-999AA1")
            #expect(try await shop.orders.history(of: first, within: .outsideRequest).map(\.action) == ["placed"])

            // Staff see every shopper's orders, newest first, filtered by status.
            #expect(try await shop.orders.allOrders(status: nil, within: .outsideRequest).map(\.id) == [placed.id, first.id])
            #expect(try await shop.orders.allOrders(status: .shipped, within: .outsideRequest).map(\.id) == [placed.id])
            #expect(try await shop.orders.anyOrder(first.id, within: .outsideRequest)?.userID == 3)
            #expect(
                TrackingNumber("short") == nil && TrackingNumber("<script>") == nil && TrackingNumber("------") == nil
                    && TrackingNumber(String(repeating: "A", count: 35)) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPaymentKeyCountsForItsOwnOrderOnly(_ kind: StoreKind) async throws {
        try await Shop.with(kind) { shop in
            let first = try await shop.place(try await shop.cart(with: 1, of: 4), userID: 1, by: Self.shopper)
            let second = try await shop.place(try await shop.cart(with: 1, of: 4), userID: 1, by: Self.shopper)
            guard case .charged = try await shop.orders.pay(first, idempotencyKey: "same", by: Self.shopper, within: .outsideRequest) else {
                Issue.record("first not charged")
                return
            }
            guard case .charged(let paid) = try await shop.orders.pay(second, idempotencyKey: "same", by: Self.shopper, within: .outsideRequest)
            else {
                Issue.record("second not charged")
                return
            }
            #expect(paid.status == .paid)
            guard case .alreadyCharged = try await shop.orders.pay(paid, idempotencyKey: "same", by: Self.shopper, within: .outsideRequest) else {
                Issue.record("charged twice")
                return
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func payAndCancelRacingLeaveAConsistentOrder(_ kind: StoreKind) async throws {
        try await Shop.with(kind) { shop in
            for _ in 0..<10 {
                let order = try await shop.place(try await shop.cart(with: 1, of: 3), userID: 1, by: Self.shopper)
                async let paying = Result(catching: {
                    try await shop.orders.pay(order, idempotencyKey: UUID().uuidString, by: Self.shopper, within: .outsideRequest)
                })
                async let cancelling = Result(catching: {
                    try await shop.orders.cancel(order, reason: "race", by: Self.shopper, within: .outsideRequest)
                })
                _ = await (paying, cancelling)
                let final = try #require(try await shop.orders.order(order.id, of: 1, within: .outsideRequest))
                // Either the payment came first and the cancel followed (a refund), or the cancel won
                // and the payment was refused; never a payment on an order cancelled before it.
                #expect(final.status == .cancelled)
                if case .failure = await paying { #expect(final.payment == nil) }
            }
        }
    }

    /// A double click, a retry after a timeout, a second tab: the same checkout form sent again,
    /// at once or later, places one order, and every submission lands on it, even when the
    /// order took the last items (the second one must not read "sold out").
    @Test(arguments: StoreKind.allCases)
    func oneCheckoutFormPlacesOneOrderHoweverOftenItIsSent(_ kind: StoreKind) async throws {
        try await Shop.with(kind) { shop in
            let user = 11
            let available = try await shop.stock(8)
            let cart = try await shop.cart(with: available, of: 8)
            let number = try await shop.orders.nextCheckoutNumber(for: user, within: .outsideRequest)
            #expect(number == 1, "a shopper's first checkout")
            let outcomes = try await withThrowingTaskGroup(of: OrderService.CheckoutOutcome.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await shop.orders.checkout(cartID: cart, userID: user, checkoutNumber: number, by: Self.shopper, within: .outsideRequest)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let placed = outcomes.compactMap { if case .placed(let order, _) = $0 { order } else { nil } }
            let found = outcomes.compactMap { if case .alreadyPlaced(let id) = $0 { id } else { nil } }
            #expect(placed.count == 1, "one order")
            #expect(found.count == 3 && found.allSatisfy { $0 == placed.first?.id }, "the others land on it")
            #expect(try await shop.stock(8) == 0, "the stock was taken once")
            #expect(try await shop.orders.orders(of: user, status: nil, within: .outsideRequest).count == 1)

            // Later, the same form again (a retry, the Back button): the same order.
            guard
                case .alreadyPlaced(let again) = try await shop.orders.checkout(
                    cartID: cart, userID: user, checkoutNumber: number, by: Self.shopper, within: .outsideRequest),
                again == placed.first?.id
            else {
                Issue.record("a later resubmission is not the same order")
                return
            }

            // The next checkout has the next number; a number from the future is refused.
            #expect(try await shop.orders.nextCheckoutNumber(for: user, within: .outsideRequest) == 2)
            let next = try await shop.cart(with: 1, of: 2)
            await #expect(throws: CheckoutError.outdatedForm) {
                try await shop.orders.checkout(cartID: next, userID: user, checkoutNumber: 3, by: Self.shopper, within: .outsideRequest)
            }
            guard
                case .placed = try await shop.orders.checkout(
                    cartID: next, userID: user, checkoutNumber: 2, by: Self.shopper, within: .outsideRequest)
            else {
                Issue.record("the next checkout was not placed")
                return
            }
            // Another shopper's numbers are their own.
            #expect(try await shop.orders.nextCheckoutNumber(for: user + 1, within: .outsideRequest) == 1)
        }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
