import Foundation
import TesseraTesting
import Testing

/// The back office through a real `storefront` process: who may use it, shipping and cancelling
/// through the orders' state machine, the history, and products' stock and price.
@Suite struct BackOfficeTests {
    static func signedIn(_ shop: TestStorefront, _ email: String, _ password: String) async throws -> TestClient {
        let browser = TestClient(port: shop.port)
        let signedIn = try await browser.submit(
            from: "/login", to: "/login", form: "email=\(email.replacingOccurrences(of: "@", with: "%40"))&password=\(password)")
        #expect(signedIn.status == 303)
        return browser
    }

    static func staff(_ shop: TestStorefront) async throws -> TestClient {
        try await signedIn(shop, "sam@example.com", "sam-staff-2026")
    }

    @Test func onlyStaffMayUseTheBackOffice() async throws {
        try await TestStorefront.run { shop in
            let paths = ["/admin", "/admin/orders", "/admin/orders/5", "/admin/products", "/admin/orders?status=paid"]
            // Signed out: sent to sign in, and back.
            let visitor = TestClient(port: shop.port)
            for path in paths {
                let answer = try await visitor.send(path)
                #expect(answer.status == 303, "\(path)")
                #expect(answer.header("location")?.hasPrefix("/login?next=") == true, "\(path)")
            }
            // A form's post comes back to the page the form is on: signing in cannot replay it.
            for (form, page) in [("/admin/orders/5/ship", "/admin/orders/5"), ("/admin/products/2", "/admin/products")] {
                let post = try await visitor.submit(from: "/login", to: form, form: "trackingNumber=1Z999AA10123456784")
                #expect(post.status == 303, "\(form)")
                #expect(post.header("location")?.removingPercentEncoding == "/login?next=\(page)", "\(form)")
            }
            // A shopper: nothing there, as for any unknown address; forms too.
            let ada = try await Self.signedIn(shop, "ada@example.com", "ada-lovelace-1815")
            for path in paths {
                let answer = try await ada.send(path)
                #expect(answer.status == 404, "\(path)")
                #expect(answer.markup.first("data-status")?["data-status"] == "404")
            }
            #expect(try await ada.submit(from: "/orders/5", to: "/admin/orders/5/ship", form: "trackingNumber=1Z999AA10123456784").status == 404)
            #expect(try await ada.submit(from: "/", to: "/admin/products/2", form: "stock=0&price=1.00&page=1&expectedStock=12").status == 404)
            #expect(!(try await ada.send("/orders")).text.contains("/admin/orders"), "no back office link for shoppers")

            let sam = try await Self.staff(shop)
            #expect(try await sam.send("/admin").header("location") == "/admin/orders")
            #expect(try await sam.send("/").text.contains(#"<a href="/admin/orders">Back office</a>"#))
            #expect(try await sam.send("/admin/orders/999").status == 404)
        }
    }

    /// Staff rights live in the session's sealed cookie, so changing them ends every session of
    /// the account: taken, no cookie of theirs opens the back office again, a copied one
    /// included; given, they hold from the next sign-in. Staff cannot take their own.
    @Test func takingStaffRightsEndsThatAccountsSessions() async throws {
        try await TestStorefront.run { shop in
            let sam = try await Self.staff(shop)
            let staffPage = try await sam.send("/admin/staff")
            #expect(staffPage.status == 200)
            #expect(staffPage.markup.tags(with: "data-staff-id").map { $0["data-staff-id"] } == ["4"], "Sam alone, by the seed")
            #expect(!staffPage.text.contains("Take staff rights from Sam"), "no form to take one's own")
            #expect(try await sam.submit(from: "/admin/staff", to: "/admin/staff/4/revoke", form: "").status == 303)
            #expect(try await sam.send("/admin/orders").status == 200, "still staff")

            // A shopper's id: not staff, so nothing changes and her session goes on.
            let grace = try await Self.signedIn(shop, "grace@example.com", "grace-hopper-1906")
            #expect(try await sam.submit(from: "/admin/staff", to: "/admin/staff/2/revoke", form: "").status == 303)
            #expect(try await sam.send("/admin/staff").text.contains("That account is not staff: nothing changed."))
            #expect(try await grace.send("/orders").status == 200, "still signed in")

            let unknown = try await sam.submit(from: "/admin/staff", to: "/admin/staff", form: "email=nobody%40example.com")
            #expect(unknown.status == 422)
            #expect(unknown.text.contains("No account has this e-mail."))

            // Ada is signed in before she is made staff: that session ends; the next one is staff.
            let before = try await Self.signedIn(shop, "ada@example.com", "ada-lovelace-1815")
            let granted = try await sam.submit(from: "/admin/staff", to: "/admin/staff", form: "email=ada%40example.com")
            #expect(granted.status == 303 && granted.header("location") == "/admin/staff")
            #expect(try await before.send("/orders").status == 303, "her session ended with the change")
            let ada = try await Self.signedIn(shop, "ada@example.com", "ada-lovelace-1815")
            #expect(try await ada.send("/admin/orders").status == 200)
            let copied = TestClient(port: shop.port)
            copied.cookie = try #require(ada.cookie, "a session cookie")
            #expect(try await copied.send("/admin/orders").status == 200)

            let taken = try await sam.submit(from: "/admin/staff", to: "/admin/staff/1/revoke", form: "")
            #expect(taken.status == 303)
            for client in [ada, copied] {
                let answer = try await client.send("/admin/orders")
                #expect(answer.status == 303 && answer.header("location")?.hasPrefix("/login") == true, "signed out, not staff")
            }
            // Sent again (a double click): the rights are gone already, and nothing else changes.
            #expect(try await sam.submit(from: "/admin/staff", to: "/admin/staff/1/revoke", form: "").status == 303)
            #expect(try await sam.send("/admin/staff").text.contains("That account is not staff: nothing changed."))
            let again = try await Self.signedIn(shop, "ada@example.com", "ada-lovelace-1815")
            #expect(try await again.send("/admin/orders").status == 404, "a shopper again")
            #expect(try await sam.send("/admin/staff").markup.tags(with: "data-staff-id").map { $0["data-staff-id"] } == ["4"])
        }
    }

    @Test func staffShipAndCancelThroughTheStateMachineAndTheHistorySaysWho() async throws {
        try await TestStorefront.run { shop in
            let sam = try await Self.staff(shop)
            // The list: newest first, filtered by status.
            let paid = try await sam.send("/admin/orders?status=paid")
            let rows = paid.markup.tags(with: "data-order-id").filter { $0["data-view"] == "AdminOrderRow" }
            #expect(rows.map { $0["data-order-status"] } == ["paid"])
            let all = try await sam.send("/admin/orders").markup.tags(with: "data-view", equalTo: "AdminOrderRow").compactMap {
                $0["data-order-id"].flatMap(Int.init)
            }
            #expect(all == all.sorted(by: >) && all.count == 6, "newest first: \(all)")
            let id = try #require(rows.first?["data-order-id"])

            // A tracking number that is not one: the form again, with its message.
            let bad = try await sam.submit(from: "/admin/orders/\(id)", to: "/admin/orders/\(id)/ship", form: "trackingNumber=%3Cb%3E")
            #expect(bad.status == 422)
            #expect(bad.markup.first("data-field", equalTo: "trackingNumber") != nil)
            #expect(bad.text.contains(#"value="&lt;b&gt;""#), "the input comes back, escaped")

            let shipped = try await sam.submit(from: "/admin/orders/\(id)", to: "/admin/orders/\(id)/ship", form: "trackingNumber=1z999aa10123456784")
            #expect(shipped.status == 303)
            let page = try await sam.send("/admin/orders/\(id)")
            #expect(page.markup.first("data-view", equalTo: "AdminOrder")?["data-order-status"] == "shipped")
            #expect(page.text.contains("<code data-tracking-number>1Z999AA10123456784</code>"))
            let history = page.markup.tags(with: "data-history-action")
            #expect(history.map { $0["data-history-action"] } == ["placed", "paid", "shipped"])
            #expect(history.map { $0["data-history-role"] } == ["shopper", "shopper", "staff"])
            #expect(page.text.contains("Sam Staff (staff)") && page.text.contains("Ada Lovelace (shopper)"))

            // The shopper sees it on their order page.
            let ada = try await Self.signedIn(shop, "ada@example.com", "ada-lovelace-1815")
            #expect(try await ada.send("/orders/\(id)").text.contains("<code data-tracking-number>1Z999AA10123456784</code>"))

            // The state machine refuses: shipping again, cancelling what is shipped.
            let again = try await sam.submit(from: "/admin/orders/1", to: "/admin/orders/\(id)/ship", form: "trackingNumber=1Z999AA10123456785")
            #expect(again.status == 409)
            #expect(try await sam.submit(from: "/admin/orders/1", to: "/admin/orders/\(id)/cancel", form: "reason=late").status == 409)

            // Cancelling needs a reason, which the shopper then reads.
            let waiting = try #require(
                try await sam.send("/admin/orders?status=awaiting_payment").markup
                    .tags(with: "data-view", equalTo: "AdminOrderRow").first?["data-order-id"])
            #expect(try await sam.submit(from: "/admin/orders/\(waiting)", to: "/admin/orders/\(waiting)/cancel", form: "reason=").status == 422)
            #expect(
                try await sam.submit(
                    from: "/admin/orders/\(waiting)", to: "/admin/orders/\(waiting)/cancel", form: "reason=Out+of+stock+at+the+warehouse"
                ).status == 303)
            let cancelled = try await ada.send("/orders/\(waiting)")
            #expect(cancelled.text.contains("<span data-cancellation-reason>Out of stock at the warehouse</span>"))
        }
    }

    @Test func staffChangeStockAndPriceWithTheirFormsCheckedAndTheShopShowsIt() async throws {
        try await TestStorefront.run { shop in
            let sam = try await Self.staff(shop)
            let list = try await sam.send("/admin/products")
            #expect(list.markup.tags(with: "data-view", equalTo: "AdminProductRow").count == 20)
            #expect(list.markup.first("rel", equalTo: "next")?["href"] == "/admin/products?page=2")
            #expect(try await sam.send("/admin/products?page=nope").status == 400)

            let shown = try #require(list.markup.first("id", equalTo: "expected-stock-4")?["value"])
            // Pages shown before the change: their detail and related regions are kept (the
            // region cache) until the change is published.
            var neighbour: String?
            for id in 1...40 where id != 4 {
                let page = try await shop.get("/products/\(id)")
                if page.text.contains(#"data-view="ProductCard" data-product-id="4""#) {
                    neighbour = "/products/\(id)"
                    break
                }
            }
            let relatedOn = try #require(neighbour, "a product whose related products show product 4")
            for target in ["/products/4", "/products/4?lang=de", relatedOn, relatedOn + "?lang=de"] {
                #expect(!(try await shop.get(target)).text.contains(#"data-price-minor="1999""#), "\(target)")
            }

            for form in ["stock=-1&price=12.50", "stock=3&price=12.505", "stock=3&price=abc", "stock=3&price=0"].map({
                $0 + "&page=1&expectedStock=\(shown)"
            }) {
                let refused = try await sam.submit(from: "/admin/products", to: "/admin/products/4", form: form)
                #expect(refused.status == 422, "\(form)")
                #expect(refused.markup.first("data-field") != nil, "\(form)")
            }
            #expect(
                try await sam.submit(from: "/admin/products", to: "/admin/products/9999", form: "stock=1&price=1.00&page=1&expectedStock=1").status
                    == 404)
            let stale = try await sam.submit(
                from: "/admin/products", to: "/admin/products/4", form: "stock=0&price=19.99&page=1&expectedStock=\((Int(shown) ?? 0) + 1)")
            #expect(stale.status == 409, "a sale made since the page was shown is never overwritten")

            let saved = try await sam.submit(
                from: "/admin/products", to: "/admin/products/4", form: "stock=0&price=19.99&page=nope&expectedStock=\(shown)")
            #expect(saved.status == 303)
            #expect(saved.header("location") == "/admin/products?page=1", "a page field that is not one comes back to the first")
            let product = try await shop.get("/products/4")
            #expect(product.text.contains("Sold out"))
            #expect(product.text.contains(#"data-price-minor="1999""#))
            let german = try await shop.get("/products/4?lang=de")
            #expect(german.text.contains(#"data-price-minor="1999">19,99"#), "both languages' kept regions ended")
            let related = try await shop.get(relatedOn)
            #expect(related.text.contains(#"data-price-minor="1999""#), "another product's related products show the new price")
        }
    }
}
