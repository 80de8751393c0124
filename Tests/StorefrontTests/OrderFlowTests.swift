import Foundation
import TesseraTesting
import Testing

/// Checkout, the orders pages and the order state machine, on a real storefront with the demo
/// data: Ada's orders are #1 completed and reviewed, #2 completed, #3 cancelled, #4 shipped,
/// #5 paid and #6 awaiting payment.
@Suite(.serialized) struct OrderFlowTests {
    static func signIn(_ browser: TestClient, as email: String, password: String) async throws {
        let reply = try await browser.submit(from: "/login", to: "/login", form: "email=\(email)&password=\(password)")
        #expect(reply.status == 303, "signed in as \(email)")
    }

    static func signInAsAda(_ browser: TestClient) async throws {
        try await signIn(browser, as: "ada%40example.com", password: "ada-lovelace-1815")
    }

    /// Registers a new shopper, puts `quantity` of the product in the cart, checks out, and
    /// returns the new order's id.
    static func newShopperOrders(_ quantity: Int, of productID: Int, in browser: TestClient, name: String = "Mary") async throws -> Int {
        let email = "\(UUID().uuidString.prefix(8))%40example.com"
        let registered = try await browser.submit(from: "/register", to: "/register", form: "name=\(name)&email=\(email)&password=long-enough-1")
        #expect(registered.status == 303)
        let added = try await browser.submit(from: "/products/\(productID)", to: "/cart/items", form: "productID=\(productID)&quantity=\(quantity)")
        #expect(added.status == 303)
        let placed = try await browser.submit(from: "/checkout", to: "/checkout", form: "")
        #expect(placed.status == 303)
        let location = try #require(placed.header("location"))
        return try #require(Int(location.dropFirst("/orders/".count)))
    }

    static func stock(of productID: Int, in shop: TestStorefront) async throws -> Int? {
        try await shop.get("/products/\(productID)").markup.first("data-stock")?["data-stock"].flatMap(Int.init)
    }

    static func status(_ page: TestResponse) -> String? {
        page.markup.first("data-view", equalTo: "OrderPage")?["data-order-status"]
    }

    @Test func checkoutCreatesAnOrderAwaitingPaymentAndReservesTheStock() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let anonymous = try await browser.send("/checkout")
            #expect(anonymous.status == 303)
            #expect(anonymous.header("location") == "/login?next=%2Fcheckout")

            let stockBefore = try #require(try await Self.stock(of: 3, in: shop))
            let product = try await shop.get("/products/3").markup
            let detail = try #require(product.first("data-view", equalTo: "ProductDetail"))
            let unit = try #require(product.after(detail).first("data-price-minor")?["data-price-minor"].flatMap(Int.init))
            let email = "buyer%40example.com"
            _ = try await browser.submit(from: "/register", to: "/register", form: "name=Buyer&email=\(email)&password=long-enough-1")
            _ = try await browser.submit(from: "/products/3", to: "/cart/items", form: "productID=3&quantity=2")
            #expect(try await browser.send("/").markup.first("data-cart-count")?["data-cart-count"] == "2", "the navigation counts the cart")

            let checkout = try await browser.send("/checkout")
            #expect(checkout.status == 200)
            #expect(checkout.text.contains("<title>Checkout · Tessera Shop</title>"))
            #expect(checkout.markup.first("data-order-total")?["data-price-minor"] == String(unit * 2))
            // A price or a total sent by the client is ignored: the server prices the order.
            let number = try #require(checkout.hiddenFields(ofFormTo: "/checkout").first { $0.name == "checkoutNumber" }?.value)
            let placed = try await browser.send(
                "/checkout", method: "POST", form: "totalMinor=1&priceMinor=1&checkoutNumber=\(number)")
            #expect(placed.status == 303)
            let orderURL = try #require(placed.header("location"))
            #expect(orderURL.hasPrefix("/orders/"))

            let order = try await browser.send(orderURL)
            #expect(Self.status(order) == "awaiting_payment")
            #expect(order.markup.first("data-order-total")?["data-price-minor"] == String(unit * 2))
            #expect(order.markup.views.contains("AwaitingPayment"))
            #expect(order.text.contains("It awaits your payment."))
            #expect(try await Self.stock(of: 3, in: shop) == stockBefore - 2, "the stock is reserved")
            #expect(try await browser.send("/cart").text.contains("Your cart is empty."))
            #expect(try await browser.send("/").markup.first("data-cart-count")?["data-cart-count"] == "0")

            // The same form sent again (a double click, a retry) lands on the same order.
            let again = try await browser.send("/checkout", method: "POST", form: "checkoutNumber=\(number)")
            #expect(again.status == 303)
            #expect(again.header("location") == orderURL, "the order the first submission placed")
            #expect(try await browser.send("/orders").markup.tags(with: "data-order-id").count == 1, "one order")

            // An empty cart cannot be checked out (its page shows no form: this one is hand-made,
            // with the next number).
            let empty = try await browser.submit(from: "/checkout", to: "/checkout", form: "checkoutNumber=2")
            #expect(empty.status == 422)
            #expect(empty.text.contains("Your cart is empty."))

            // A form without its number (hand-made, or from before numbers) places nothing: the
            // page comes back to be looked at again, with a fresh number.
            _ = try await browser.submit(from: "/products/3", to: "/cart/items", form: "productID=3&quantity=1")
            let unnumbered = try await browser.send("/checkout", method: "POST", form: "")
            #expect(unnumbered.status == 409)
            #expect(unnumbered.text.contains("This checkout page was out of date"))
            #expect(unnumbered.hiddenFields(ofFormTo: "/checkout").contains { $0.name == "checkoutNumber" && $0.value == "2" })
            #expect(try await browser.send("/orders").markup.tags(with: "data-order-id").count == 1, "still one order")
        }
    }

    /// A double click: the browser sends the same checkout form twice, at once, on two
    /// connections with the same cookie. One order; both answers land on it; the stock is
    /// taken once, even though the order took the last items.
    @Test func aCheckoutSentTwiceAtOncePlacesOneOrder() async throws {
        try await TestStorefront.run { shop in
            let stock = try #require(try await Self.stock(of: 9, in: shop))
            let browser = TestClient(port: shop.port)
            _ = try await browser.submit(from: "/register", to: "/register", form: "name=Twice&email=twice%40example.com&password=long-enough-1")
            _ = try await browser.submit(from: "/products/9", to: "/cart/items", form: "productID=9&quantity=\(stock)")
            let page = try await browser.send("/checkout")
            let form = page.hiddenFields(ofFormTo: "/checkout").map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            let clicks = (0..<2).map { _ in
                let click = TestClient(port: shop.port)
                click.cookie = browser.cookie
                return click
            }
            async let first = clicks[0].send("/checkout", method: "POST", form: form)
            async let second = clicks[1].send("/checkout", method: "POST", form: form)
            let answers = try await [first, second]
            #expect(answers.map(\.status) == [303, 303])
            #expect(answers[0].header("location") == answers[1].header("location"), "both land on the one order")
            #expect(try await browser.send("/orders").markup.tags(with: "data-order-id").count == 1, "one order")
            #expect(try await Self.stock(of: 9, in: shop) == 0, "the stock was taken once")
        }
    }

    @Test func checkoutRefusesMoreThanTheStockAndChangesNothing() async throws {
        try await TestStorefront.run { shop in
            let stock = try #require(try await Self.stock(of: 5, in: shop))
            // One shopper fills the cart with all of it; another buys one first.
            let first = TestClient(port: shop.port)
            _ = try await first.submit(from: "/register", to: "/register", form: "name=First&email=first%40example.com&password=long-enough-1")
            _ = try await first.submit(from: "/products/5", to: "/cart/items", form: "productID=5&quantity=\(stock)")
            let second = TestClient(port: shop.port)
            _ = try await Self.newShopperOrders(1, of: 5, in: second)
            #expect(try await Self.stock(of: 5, in: shop) == stock - 1)

            let refused = try await first.submit(from: "/checkout", to: "/checkout", form: "")
            #expect(refused.status == 422)
            #expect(refused.text.contains("Only \(stock - 1) of"))
            #expect(try await Self.stock(of: 5, in: shop) == stock - 1, "nothing was reserved")
            #expect(try await first.send("/orders").text.contains("You have no orders yet."), "no order was created")
            #expect(try await first.send("/cart").markup.first("data-item-count")?["data-item-count"] == String(stock), "the cart is intact")
        }
    }

    @Test func payingTwiceWithTheSameFormChargesOnce() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let id = try await Self.newShopperOrders(1, of: 10, in: browser)
            let page = try await browser.send("/orders/\(id)")
            let key = try #require(page.markup.first("name", equalTo: "idempotencyKey")?["value"])
            let form = "idempotencyKey=\(key)"

            // A pay form without its key (or with a huge one) is refused and charges nothing.
            for bad in ["", "idempotencyKey=&", "idempotencyKey=\(String(repeating: "k", count: 65))&"] {
                let refused = try await browser.send("/orders/\(id)/pay", method: "POST", form: bad)
                #expect(refused.status == 400, "\(bad)")
                #expect(refused.text.contains("The payment form is incomplete"))
            }
            #expect(Self.status(try await browser.send("/orders/\(id)")) == "awaiting_payment")

            let paid = try await browser.send("/orders/\(id)/pay", method: "POST", form: form)
            #expect(paid.status == 303)
            let afterFirst = try await browser.send("/orders/\(id)")
            #expect(Self.status(afterFirst) == "paid")
            #expect(afterFirst.text.contains("Thank you! We charged"))
            let reference = afterFirst.text.firstMatch(of: /data-payment-reference>([A-Z0-9-]+)</)?.output.1

            let again = try await browser.send("/orders/\(id)/pay", method: "POST", form: form)
            #expect(again.status == 303, "the same form again is not an error")
            let afterSecond = try await browser.send("/orders/\(id)")
            #expect(afterSecond.text.contains("was already paid with this form; nothing more was charged."))
            #expect(afterSecond.text.firstMatch(of: /data-payment-reference>([A-Z0-9-]+)</)?.output.1 == reference, "still the one payment")

            // A different pay form for a paid order is a conflict, not a second charge.
            let other = try await browser.send("/orders/\(id)/pay", method: "POST", form: "idempotencyKey=another-key")
            #expect(other.status == 409)
            #expect(other.text.contains("This order is already paid."))

            // Two submissions of one form at the same moment: still one charge.
            let racing = try await Self.newShopperOrders(1, of: 11, in: browser)
            let racePage = try await browser.send("/orders/\(racing)")
            let raceForm =
                "idempotencyKey=\(racePage.markup.first("name", equalTo: "idempotencyKey")?["value"] ?? "")"
            async let one = browser.send("/orders/\(racing)/pay", method: "POST", form: raceForm)
            async let two = browser.send("/orders/\(racing)/pay", method: "POST", form: raceForm)
            #expect(try await [one.status, two.status] == [303, 303])
            #expect(Self.status(try await browser.send("/orders/\(racing)")) == "paid")

            let list = try await browser.send("/orders?status=paid").markup
            #expect(list.tags(with: "data-order-id").map { $0["data-order-id"] } == [String(racing)], "the new shopper's one paid order")
            #expect(list.first("data-order-id")?["data-view"] == "OrderRow")
        }
    }

    @Test func theOrderListIsNewestFirstWithAFilterAndARowViewPerState() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let anonymous = try await browser.send("/orders")
            #expect(anonymous.status == 303)
            #expect(anonymous.header("location") == "/login?next=%2Forders")
            try await Self.signInAsAda(browser)

            let list = try await browser.send("/orders")
            #expect(list.text.contains("<title>Your orders · Tessera Shop</title>"))
            let rows = list.markup.tags(with: "data-order-id")
            #expect(rows.map { $0["data-order-id"] } == ["6", "5", "4", "3", "2", "1"], "newest first")
            #expect(Set(rows.compactMap { $0["data-order-status"] }) == ["awaiting_payment", "paid", "shipped", "completed", "cancelled"])
            for row in rows {
                #expect(row.name == "tr")
                let expected = row["data-order-status"] == "awaiting_payment" ? "AwaitingPaymentRow" : "OrderRow"
                #expect(row["data-view"] == expected, "row view for \(row["data-order-status"] ?? "")")
            }
            // The awaiting-payment row carries the amount due and a Pay button.
            let dueRow = list.markup.after(try #require(rows.first))
            #expect(Int(dueRow.first("data-price-minor")?["data-price-minor"] ?? "") ?? 0 > 0, "the amount due")
            #expect(dueRow.first("action")?["action"] == "/orders/6/pay", "the Pay button's form")
            #expect(list.text.contains("Due <strong data-price-minor="))

            let shipped = try await browser.send("/orders?status=shipped").markup.tags(with: "data-order-id")
            #expect(shipped.map { $0["data-order-id"] } == ["4"])
            #expect(
                try await browser.send("/orders?status=shipped").markup.first("data-status-filter", equalTo: "shipped")?["aria-current"] == "page")
            let completed = try await browser.send("/orders?status=completed").markup.tags(with: "data-order-id")
            #expect(completed.map { $0["data-order-id"] } == ["2", "1"])

            let bad = try await browser.send("/orders?status=lost")
            #expect(bad.status == 400)
            #expect(bad.text.contains("Filter by one of: awaiting_payment, paid, shipped, completed, cancelled."))
        }
    }

    @Test func theOrderPagePicksItsChildPerStatus() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            try await Self.signInAsAda(browser)
            let expected: [(Int, String, String, String)] = [
                (6, "awaiting_payment", "AwaitingPayment", "action=\"/orders/6/pay\""),
                (5, "paid", "AwaitingShipment", "action=\"/orders/5/cancel\""),
                (4, "shipped", "Shipped", "data-tracking-number>TRK-"),
                (2, "completed", "Completed", "action=\"/orders/2/review\""),
                (1, "completed", "Completed", "<blockquote>Lovely quality, and it arrived quickly.</blockquote>"),
                (3, "cancelled", "Cancelled", "data-cancellation-reason>Ordered the wrong colour.<"),
            ]
            for (id, status, child, marker) in expected {
                let page = try await browser.send("/orders/\(id)")
                #expect(page.status == 200)
                #expect(page.text.contains("<title>Order #\(id) · Tessera Shop</title>"))
                #expect(Self.status(page) == status)
                let region = try #require(page.markup.first("data-region", equalTo: "status"))
                #expect(region["data-region-src"] == "/orders/\(id)/status")
                #expect(page.markup.views.contains(child), "order \(id)")
                #expect(page.text.contains(marker), "order \(id)")
                // The region's own URL answers with the same child, as a bare fragment.
                let fragment = try await browser.send("/orders/\(id)/status")
                #expect(fragment.markup.views.first == child)
                #expect(!fragment.text.contains("<html"))
            }
        }
    }

    @Test func invalidTransitionsAreExplained409Pages() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            try await Self.signInAsAda(browser)
            let cases: [(String, String, String)] = [
                ("/orders/3/pay", "idempotencyKey=k1", "An order with the status “Cancelled” cannot be paid."),
                ("/orders/4/review", "rating=5&text=Great", "Only a completed order can be reviewed; this one has the status “Shipped”."),
                ("/orders/6/review", "rating=5&text=Great", "Only a completed order can be reviewed; this one has the status “Awaiting payment”."),
                ("/orders/1/review", "rating=4&text=Again", "This order already has a review."),
                ("/orders/5/confirm", "", "An order with the status “Paid, awaiting shipment” cannot be confirmed as received."),
                ("/orders/4/cancel", "reason=late", "An order with the status “Shipped” cannot be cancelled."),
                ("/orders/3/cancel", "", "An order with the status “Cancelled” cannot be cancelled."),
            ]
            for (action, form, message) in cases {
                let reply = try await browser.send(action, method: "POST", form: form + "")
                #expect(reply.status == 409, "\(action)")
                #expect(reply.text.contains(message), "\(action)")
                #expect(reply.markup.first("data-status")?["data-status"] == "409", "an error page in the layout")
                let order = action.split(separator: "/")[1]
                #expect(reply.text.contains("<a href=\"/orders/\(order)\">Back to order #\(order)</a>"), "\(action): a way back to the order")
            }
            // In German, the refusal and its way back too.
            _ = try await browser.send("/orders?lang=de")
            let german = try await browser.send("/orders/3/pay", method: "POST", form: "idempotencyKey=k1")
            #expect(german.status == 409)
            #expect(german.text.contains("Eine Bestellung mit dem Status „Storniert“ kann nicht bezahlt werden."), "\(german.text)")
            #expect(german.text.contains("<a href=\"/orders/3\">Zurück zu Bestellung Nr. 3</a>"))
            #expect(Self.status(try await browser.send("/orders/3")) == "cancelled", "nothing changed")
            #expect(Self.status(try await browser.send("/orders/4")) == "shipped")
        }
    }

    @Test func confirmingReceiptThenReviewingWithEscaping() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            try await Self.signInAsAda(browser)
            _ = try await browser.send("/orders/4")
            let confirmed = try await browser.send("/orders/4/confirm", method: "POST", form: "")
            #expect(confirmed.status == 303)
            let completed = try await browser.send("/orders/4")
            #expect(Self.status(completed) == "completed")
            #expect(completed.markup.first("name", equalTo: "rating") != nil, "the review form")

            // Bad fields come back on the order page, with what was typed.
            let bad = try await browser.send(
                "/orders/4/review", method: "POST", form: "rating=9&text=%3Cb%3Ehi%3C%2Fb%3E")
            #expect(bad.status == 422)
            #expect(bad.markup.first("data-field", equalTo: "rating") != nil)
            #expect(bad.text.contains("&lt;b&gt;hi&lt;/b&gt;</textarea>"))
            #expect(Self.status(bad) == "completed")

            let payload = "%3Cscript%3Ealert(%27x%27)%3C%2Fscript%3E%20%22quoted%22"
            let reviewed = try await browser.send("/orders/4/review", method: "POST", form: "rating=4&text=\(payload)")
            #expect(reviewed.status == 303)
            let shown = try await browser.send("/orders/4")
            #expect(shown.markup.first("data-review-rating")?["data-review-rating"] == "4")
            #expect(shown.text.contains("<blockquote>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &quot;quoted&quot;</blockquote>"))
            #expect(!shown.text.contains("<script>alert("))
            #expect(!shown.text.contains("action=\"/orders/4/review\""), "the form is gone once reviewed")
        }
    }

    @Test func cancellingGivesTheStockBackAndShowsTheReason() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let before = try #require(try await Self.stock(of: 12, in: shop))
            let id = try await Self.newShopperOrders(2, of: 12, in: browser)
            #expect(try await Self.stock(of: 12, in: shop) == before - 2)
            _ = try await browser.send("/orders/\(id)")
            let tooLong = String(repeating: "x", count: 201)
            let refused = try await browser.send("/orders/\(id)/cancel", method: "POST", form: "reason=\(tooLong)")
            #expect(refused.status == 422)
            #expect(refused.markup.first("data-field", equalTo: "reason") != nil)
            #expect(Self.status(refused) == "awaiting_payment")

            let cancelled = try await browser.send(
                "/orders/\(id)/cancel", method: "POST", form: "reason=%3Ci%3EChanged%3C%2Fi%3E+my+mind")
            #expect(cancelled.status == 303)
            let shown = try await browser.send("/orders/\(id)")
            #expect(Self.status(shown) == "cancelled")
            #expect(shown.text.contains("data-cancellation-reason>&lt;i&gt;Changed&lt;/i&gt; my mind<"))
            #expect(try await Self.stock(of: 12, in: shop) == before, "the stock is back")

            let pay = try await browser.send("/orders/\(id)/pay", method: "POST", form: "idempotencyKey=late")
            #expect(pay.status == 409, "paying a cancelled order")
        }
    }

    @Test func anotherShoppersOrderIsNotFound() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let signedOut = try await browser.send("/orders/1")
            #expect(signedOut.status == 303)
            #expect(signedOut.header("location") == "/login?next=%2Forders%2F1")

            try await Self.signIn(browser, as: "grace%40example.com", password: "grace-hopper-1906")
            for target in ["/orders/1", "/orders/6/status", "/orders/999", "/orders/abc", "/orders/-1", "/orders/99999999999999999999"] {
                let reply = try await browser.send(target)
                #expect(reply.status == 404, "\(target)")
                #expect(!reply.text.contains("Lovelace"), "\(target)")  // her surname: "Ada" can turn up in a random token
            }
            let pay = try await browser.send("/orders/6/pay", method: "POST", form: "idempotencyKey=steal")
            #expect(pay.status == 404, "another shopper's order cannot be paid")
            let cancel = try await browser.send("/orders/6/cancel", method: "POST", form: "")
            #expect(cancel.status == 404)

            let ada = TestClient(port: shop.port)
            try await Self.signInAsAda(ada)
            #expect(Self.status(try await ada.send("/orders/6")) == "awaiting_payment", "untouched")
        }
    }

    @Test func thePurchasesRegionShowsOnlyTheSignedInShoppersPurchases() async throws {
        try await TestStorefront.run { shop in
            let anonymous = try await shop.get("/products/17")
            #expect(anonymous.markup.first("data-region", equalTo: "purchases") == nil, "no region for a visitor")

            let ada = TestClient(port: shop.port)
            try await Self.signInAsAda(ada)
            let page = try await ada.send("/products/17")
            let region = try #require(page.markup.first("data-region", equalTo: "purchases"))
            #expect(region["data-region-src"] == "/products/17/purchases")
            let purchases = page.markup.tags(with: "data-order-id")
            #expect(purchases.map { $0["data-order-id"] } == ["1"])
            #expect(page.text.contains(#"<a href="/orders/1">Order #1</a>"#))
            #expect(page.markup.first("data-quantity")?["data-quantity"] == "2")
            #expect(page.text.contains("<time datetime=\""))
            // The fragment URL answers alone.
            #expect(try await ada.send("/products/17/purchases").markup.views == ["Purchases"])
            // Ordered but not paid (#6 holds product 11): not a purchase yet.
            #expect(!(try await ada.send("/products/11")).markup.views.contains("Purchases"))

            let grace = TestClient(port: shop.port)
            try await Self.signIn(grace, as: "grace%40example.com", password: "grace-hopper-1906")
            #expect(!(try await grace.send("/products/17")).markup.views.contains("Purchases"), "Grace bought none")

            _ = try await ada.submit(from: "/", to: "/logout", form: "")
            #expect(try await ada.send("/products/17").markup.first("data-region", equalTo: "purchases") == nil, "gone after signing out")
        }
    }

    @Test func aNameWithMarkupComesBackEscapedEverywhere() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let name = "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"
            _ = try await Self.newShopperOrders(1, of: 2, in: browser, name: name)
            for target in ["/", "/orders", "/account", "/products/2", "/cart"] {
                let page = try await browser.send(target)
                #expect(!page.text.contains("<img src=x"), "\(target)")
                #expect(page.text.contains("&lt;img src=x onerror=alert(1)&gt;"), "\(target)")
            }
        }
    }
}
