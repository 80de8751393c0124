import Foundation
import TesseraTesting
import Testing

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
            let region = try #require(page.markup.first("data-region", equalTo: "add-to-cart"))
            #expect(region["data-region-src"] == "/products/3/add-to-cart")
            #expect(region["data-region-version"] != nil, "a live region: stock changes show at once")
            #expect(page.markup.after(region).tags.first.map { [$0["data-view"], $0["data-product-id"]] } == ["AddToCart", "3"])
            let fragment = try await shop.get("/products/3/add-to-cart")
            #expect(fragment.markup.views == ["AddToCart"], "the region's own URL")
            #expect(try await shop.get("/products/999/add-to-cart").status == 404)
            #expect(page.text.contains("<form method=\"post\" action=\"/cart/items\">\n    <input type=\"hidden\" name=\"productID\" value=\"3\">"))
            #expect(!page.text.contains("_csrf"), "forms carry no token")
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
            let added = try await browser.send(
                "/cart/items", method: "POST", form: "productID=3&quantity=2&priceMinor=1")
            #expect(added.status == 303)
            #expect(added.header("location") == "/cart")
            let cart = try await browser.send("/cart")
            #expect(cart.text.contains(#"data-item-count="2""#))
            #expect(Self.cartTotal(cart.text) == unit * 2)
            #expect(cart.text.contains("Added 2 × Paper Pendant to your cart."))

            // Change the quantity, then remove the line.
            let updated = try await browser.send("/cart/items/3", method: "POST", form: "quantity=3")
            #expect(updated.status == 303)
            #expect(Self.cartTotal(try await browser.send("/cart").text) == unit * 3)
            _ = try await browser.send("/cart/items/3/remove", method: "POST", form: "")
            #expect(try await browser.send("/cart").text.contains("Your cart is empty."))
        }
    }

    @Test func badQuantitiesAreShownAgainWithAMessage() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let cases = [
                ("0", "Quantity must be between 1 and 10,000."),
                ("-2", "Quantity must be between 1 and 10,000."),
                ("abc", "Quantity must be a whole number."),
                ("9999", "Only"),
            ]
            // The same refusals in German, for a browser that asks for German.
            let german = [
                ("0", "Menge muss zwischen 1 und 10.000 liegen."), ("abc", "Menge muss eine ganze Zahl sein."),
                ("9999", "Von Paper Pendant sind nur noch"),
            ]
            for (quantity, message) in german {
                let reply = try await browser.send(
                    "/cart/items", method: "POST", form: "productID=3&quantity=\(quantity)",
                    headers: ["Accept-Language": "de"])
                #expect(reply.status == 422, "\(quantity)")
                #expect(reply.text.contains(message), "\(quantity): \(reply.text)")
            }
            for (quantity, message) in cases {
                let reply = try await browser.send("/cart/items", method: "POST", form: "productID=3&quantity=\(quantity)")
                #expect(reply.status == 422, "\(quantity)")
                #expect(reply.text.contains(message), "\(quantity)")
                #expect(reply.text.contains(#"value="\#(quantity)""#), "the value typed is shown again: \(quantity)")
                // A whole page about the product, not a bare form: its name as the heading, its price.
                #expect(reply.text.contains("<h1>Paper Pendant</h1>"), "\(quantity)")
                #expect(reply.markup.tags(with: "data-price-minor").count == 1, "\(quantity)")
                #expect(reply.text.contains("<title>Paper Pendant · Tessera Shop</title>"))
            }
            let soldOut = try await browser.send("/cart/items", method: "POST", form: "productID=7&quantity=1")
            #expect(soldOut.status == 422)
            #expect(soldOut.text.contains("is sold out"))
            let unknown = try await browser.send("/cart/items", method: "POST", form: "productID=9999&quantity=1")
            #expect(unknown.status == 404)
            #expect(try await browser.send("/cart").text.contains("Your cart is empty."), "nothing was added")
        }
    }

    @Test func theCartSurvivesSignIn() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            _ = try await browser.send("/cart/items", method: "POST", form: "productID=10&quantity=1")
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

    /// The quantity of `productID` in a cart page, or `nil` when it has no such line.
    static func quantity(of productID: Int, in cart: TestResponse) -> Int? {
        guard let line = cart.text.range(of: #"data-product-id="\#(productID)""#) else { return nil }
        guard let value = cart.text[line.upperBound...].range(of: #"name="quantity""#) else { return nil }
        let rest = cart.text[value.upperBound...]
        guard let start = rest.range(of: #"value=""#) else { return nil }
        return Int(rest[start.upperBound...].prefix { $0.isNumber })
    }

    @Test func theCartFollowsTheShopperAcrossBrowsersAndStaysWithinTheStock() async throws {
        try await TestStorefront.run { shop in
            // Product 10 has 13 in stock, product 3 has 18.
            let first = TestClient(port: shop.port)
            _ = try await first.submit(from: "/products/10", to: "/cart/items", form: "productID=10&quantity=2")
            _ = try await first.submit(from: "/login", to: "/login", form: "email=grace%40example.com&password=grace-hopper-1906")
            #expect(Self.quantity(of: 10, in: try await first.send("/cart")) == 2, "the anonymous cart became the account's")

            // A second browser brings its own anonymous cart: quantities add up.
            let second = TestClient(port: shop.port)
            _ = try await second.submit(from: "/products/10", to: "/cart/items", form: "productID=10&quantity=1")
            _ = try await second.submit(from: "/products/3", to: "/cart/items", form: "productID=3&quantity=1")
            _ = try await second.submit(from: "/login", to: "/login", form: "email=grace%40example.com&password=grace-hopper-1906")
            let merged = try await second.send("/cart")
            #expect(Self.quantity(of: 10, in: merged) == 3)
            #expect(Self.quantity(of: 3, in: merged) == 1)
            #expect(merged.text.contains(#"data-cart-count="4""#), "the navigation counts the account's cart")

            // The first browser sees the same cart.
            let seenFirst = try await first.send("/cart")
            #expect(Self.quantity(of: 10, in: seenFirst) == 3)
            #expect(Self.quantity(of: 3, in: seenFirst) == 1)

            // A third anonymous cart would go past the stock: capped at it.
            let third = TestClient(port: shop.port)
            _ = try await third.submit(from: "/products/10", to: "/cart/items", form: "productID=10&quantity=12")
            _ = try await third.submit(from: "/login", to: "/login", form: "email=grace%40example.com&password=grace-hopper-1906")
            #expect(Self.quantity(of: 10, in: try await third.send("/cart")) == 13)

            // Signing out leaves an empty anonymous cart; the account keeps its own.
            _ = try await first.submit(from: "/cart", to: "/logout", form: "")
            let signedOut = try await first.send("/cart")
            #expect(signedOut.text.contains("Your cart is empty."))
            #expect(signedOut.text.contains(#"data-cart-count="0""#))
            #expect(Self.quantity(of: 10, in: try await second.send("/cart")) == 13)
        }
    }
}
