import Foundation
import Testing
import TesseraTesting

/// The cart on a real storefront: the add-to-cart region, quantities, totals, sign-in.
@Suite(.serialized) struct CartFlowTests {
    static func price(of productID: Int, in page: String) -> Int? {
        guard let range = page.range(of: #"data-view="ProductDetail""#) else { return nil }
        let rest = page[range.upperBound...]
        guard let price = rest.range(of: #"data-price-minor=""#) else { return nil }
        return Int(rest[price.upperBound...].prefix { $0.isNumber })
    }

    static func cartTotal(_ page: String) -> Int? {
        guard let range = page.range(of: #"data-cart-total data-price-minor=""#) else { return nil }
        return Int(page[range.upperBound...].prefix { $0.isNumber })
    }

    @Test func theProductPageOffersTheCartOnlyForProductsInStock() async throws {
        try await TestStorefront.run { shop in
            let page = try await shop.get("/products/3")
            #expect(page.text.contains(#"<div data-region="add-to-cart" data-region-src="/products/3/add-to-cart"><section class="add-to-cart" data-view="AddToCart" data-product-id="3">"#))
            let fragment = try await shop.get("/products/3/add-to-cart")
            #expect(fragment.markup.views == ["AddToCart"], "the region's own URL")
            #expect(try await shop.get("/products/999/add-to-cart").status == 404)
            #expect(page.text.contains(#"<form method="post" action="/cart/items"><input type="hidden" name="_csrf""#))
            let soldOut = try await shop.get("/products/7")
            #expect(soldOut.text.contains(#"data-view="AddToCart" data-product-id="7""#))
            #expect(!soldOut.text.contains(#"action="/cart/items""#))
        }
    }

    @Test func addingComputesTotalsOnTheServer() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let page = try await browser.send("/products/3")
            let unit = try #require(Self.price(of: 3, in: page.text))
            // A price sent by the client is ignored.
            let added = try await browser.send("/cart/items", method: "POST", form: "productID=3&quantity=2&priceMinor=1&_csrf=\(page.csrfToken ?? "")")
            #expect(added.status == 303)
            #expect(added.header("location") == "/cart")
            let cart = try await browser.send("/cart")
            #expect(cart.text.contains(#"data-item-count="2""#))
            #expect(Self.cartTotal(cart.text) == unit * 2)
            #expect(cart.text.contains("Added 2 × Paper Pendant to your cart."))

            // Change the quantity, then remove the line.
            let updated = try await browser.send("/cart/items/3", method: "POST", form: "quantity=3&_csrf=\(cart.csrfToken ?? "")")
            #expect(updated.status == 303)
            #expect(Self.cartTotal(try await browser.send("/cart").text) == unit * 3)
            _ = try await browser.send("/cart/items/3/remove", method: "POST", form: "_csrf=\(cart.csrfToken ?? "")")
            #expect(try await browser.send("/cart").text.contains("Your cart is empty."))
        }
    }

    @Test func badQuantitiesAreShownAgainWithAMessage() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let token = try await browser.send("/products/3").csrfToken ?? ""
            let cases = [
                ("0", "Quantity must be between 1 and 10000."),
                ("-2", "Quantity must be between 1 and 10000."),
                ("abc", "Quantity must be a whole number."),
                ("9999", "Only"),
            ]
            for (quantity, message) in cases {
                let reply = try await browser.send("/cart/items", method: "POST", form: "productID=3&quantity=\(quantity)&_csrf=\(token)")
                #expect(reply.status == 422, "\(quantity)")
                #expect(reply.text.contains(message), "\(quantity)")
                #expect(reply.text.contains(#"value="\#(quantity)""#), "the value typed is shown again: \(quantity)")
            }
            let soldOut = try await browser.send("/cart/items", method: "POST", form: "productID=7&quantity=1&_csrf=\(token)")
            #expect(soldOut.status == 422)
            #expect(soldOut.text.contains("is sold out"))
            let unknown = try await browser.send("/cart/items", method: "POST", form: "productID=9999&quantity=1&_csrf=\(token)")
            #expect(unknown.status == 404)
            #expect(try await browser.send("/cart").text.contains("Your cart is empty."), "nothing was added")
        }
    }

    @Test func theCartSurvivesSignIn() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let token = try await browser.send("/products/10").csrfToken ?? ""
            _ = try await browser.send("/cart/items", method: "POST", form: "productID=10&quantity=1&_csrf=\(token)")
            let before = try await browser.send("/cart")
            #expect(before.text.contains(#"data-product-id="10""#))
            let cookieBefore = browser.cookie
            _ = try await browser.submit(from: "/login", to: "/login", form: "email=ada%40example.com&password=ada-lovelace-1815")
            #expect(browser.cookie != cookieBefore)
            let after = try await browser.send("/cart")
            #expect(after.text.contains(#"data-product-id="10""#))
            #expect(after.text.contains(#"data-signed-in-as="Ada Lovelace""#))
        }
    }
}
