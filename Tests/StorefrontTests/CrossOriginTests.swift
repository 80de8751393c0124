import Foundation
import TesseraTesting
import Testing

/// Every form that posts, on every kind of page the shop serves, carries the session's token:
/// full pages, region fragments at their own URLs, error pages and forms sent back with errors.
@Suite struct FormTokenTests {
    @Test func everyPostFormOnEveryPageCarriesTheToken() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            _ = try await browser.submit(from: "/login", to: "/login", form: "email=ada%40example.com&password=ada-lovelace-1815")
            _ = try await browser.submit(from: "/products/2", to: "/cart/items", form: "productID=2&quantity=1")
            let pages =
                ["/", "/products/2", "/products/17", "/cart", "/checkout", "/orders", "/account", "/no/such/page"]
                + (1...6).map { "/orders/\($0)" } + (1...6).map { "/orders/\($0)/status" }
                + ["/products/2/add-to-cart", "/products/17/purchases"]
            var formsSeen = 0
            for page in pages {
                let reply = try await browser.send(page)
                formsSeen += try Self.checkForms(in: reply, page)
            }
            // Forms sent back with their errors (422) and an error page (409).
            let rejected = try await browser.submit(from: "/cart", to: "/cart/items/2", form: "quantity=abc")
            #expect(rejected.status == 422)
            formsSeen += try Self.checkForms(in: rejected, "422 cart")
            let conflict = try await browser.submit(from: "/orders/3", to: "/orders/3/pay", form: "idempotencyKey=x")
            #expect(conflict.status == 409)
            formsSeen += try Self.checkForms(in: conflict, "409 page")
            #expect(formsSeen > 25, "the pages really have forms: \(formsSeen)")
        }
    }

    /// How many post forms the page has; each must be followed by its token field.
    static func checkForms(in reply: TestResponse, _ page: String) throws -> Int {
        let markup = reply.markup
        let forms = markup.tags.filter { $0.name == "form" && $0["method"]?.lowercased() == "post" }
        for form in forms {
            let next = markup.after(form).tags.first
            #expect(
                next?.name == "input" && next?["name"] == "_csrf" && (next?["value"]?.count ?? 0) >= 40,
                "\(page): the form to \(form["action"] ?? "?") has no token")
        }
        return forms.count
    }
}
