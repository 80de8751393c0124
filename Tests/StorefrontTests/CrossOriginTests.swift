import Foundation
import TesseraTesting
import Testing

/// Forms carry no token (decision 0035): a first visit to any page with a form sets no cookie,
/// every form works from the shop's own pages, and a post a browser says came from elsewhere is
/// a 403 page in the visitor's language that changes nothing.
@Suite struct CrossOriginTests {
    @Test func browsingSetsNoCookieAndFormsCarryNoToken() async throws {
        try await TestStorefront.run { shop in
            let anonymous = ["/", "/products/2", "/products/17", "/?q=tea", "/login", "/register", "/password/forgot", "/cart", "/no/such/page"]
            var formsSeen = 0
            for page in anonymous {
                let reply = try await TestClient(port: shop.port).send(page)
                #expect(reply.headers("set-cookie").isEmpty, "\(page): browsing keeps nothing, so it sets no cookie")
                formsSeen += Self.checkForms(in: reply, page)
            }
            #expect(formsSeen >= 5, "the pages really have forms: \(formsSeen)")

            // Signed in, with a cart: every form of every page, of error pages and of forms sent
            // back with their errors, still carries nothing of the session.
            let browser = TestClient(port: shop.port)
            _ = try await browser.submit(from: "/login", to: "/login", form: "email=ada%40example.com&password=ada-lovelace-1815")
            _ = try await browser.submit(from: "/products/2", to: "/cart/items", form: "productID=2&quantity=1")
            let pages =
                ["/", "/products/2", "/cart", "/checkout", "/orders", "/account"] + (1...6).map { "/orders/\($0)" }
                + ["/products/2/add-to-cart", "/products/17/purchases"]
            for page in pages {
                formsSeen += Self.checkForms(in: try await browser.send(page), page)
            }
            let rejected = try await browser.submit(from: "/cart", to: "/cart/items/2", form: "quantity=abc")
            #expect(rejected.status == 422)
            formsSeen += Self.checkForms(in: rejected, "422 cart")
            let conflict = try await browser.submit(from: "/orders/3", to: "/orders/3/pay", form: "idempotencyKey=x")
            #expect(conflict.status == 409)
            formsSeen += Self.checkForms(in: conflict, "409 page")
            #expect(formsSeen > 25, "the pages really have forms: \(formsSeen)")
        }
    }

    /// A post from another site is refused before it reaches the shop's code: signed in or not,
    /// in the visitor's language, and the cart stays as it was.
    @Test func aPostFromAnotherSiteIsA403InTheVisitorsLanguage() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            _ = try await browser.submit(from: "/login", to: "/login", form: "email=ada%40example.com&password=ada-lovelace-1815")
            for headers in [
                ["Sec-Fetch-Site": "cross-site"], ["Sec-Fetch-Site": "same-site"], ["Origin": "https://evil.example"], ["Origin": "null"],
            ] {
                let english = try await browser.send("/cart/items", method: "POST", form: "productID=2&quantity=1", headers: headers)
                #expect(english.status == 403, "\(headers)")
                #expect(english.text.contains("did not come from this site"), "\(headers)")
                let german = try await browser.send(
                    "/cart/items", method: "POST", form: "productID=2&quantity=1", headers: headers.merging(["Accept-Language": "de"]) { $1 })
                #expect(german.status == 403, "\(headers)")
                #expect(german.text.contains("stammt nicht von dieser Website"), "\(headers)")
            }
            #expect(!(try await browser.send("/cart").text.contains(#"data-product-id="2""#)), "nothing reached the cart")
            let own = try await browser.send(
                "/cart/items", method: "POST", form: "productID=2&quantity=1", headers: ["Sec-Fetch-Site": "same-origin"])
            #expect(own.status == 303)
            #expect(try await browser.send("/cart").text.contains(#"data-product-id="2""#))
        }
    }

    /// How many post forms the page has; none may carry a token field.
    static func checkForms(in reply: TestResponse, _ page: String) -> Int {
        let forms = reply.markup.tags.filter { $0.name == "form" && $0["method"]?.lowercased() == "post" }
        #expect(!reply.text.contains("_csrf"), "\(page): a form carries a token")
        return forms.count
    }
}
