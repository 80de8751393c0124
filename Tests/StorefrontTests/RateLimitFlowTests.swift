import Foundation
import TesseraTesting
import Testing

/// The storefront's rate limits on one instance (their counts in memory, on SQLite): the
/// defaults for registration, a lowered checkout limit, and the 429 page.
@Suite(.serialized) struct RateLimitFlowTests {
    @Test func theEleventhRegistrationFromOneAddressInAnHourGetsA429Page() async throws {
        // Empty values: the defaults (10 an hour), not the test settings' higher limits.
        try await TestStorefront.run(environment: ["REGISTRATION_LIMIT": ""]) { shop in
            for number in 1...10 {
                let registered = try await TestClient(port: shop.port).submit(
                    from: "/register", to: "/register", form: "name=Visitor&email=visitor\(number)%40example.com&password=long-enough-1")
                #expect(registered.status == 303, "registration \(number)")
            }
            let browser = TestClient(port: shop.port)
            _ = try await browser.send("/register")
            let refused = try await browser.send(
                "/register", method: "POST",
                form: "name=Eleven&email=eleven%40example.com&password=long-enough-1",
                headers: ["Accept-Language": "de"])
            #expect(refused.status == 429)
            #expect(refused.header("retry-after").flatMap(Int.init).map { (3500...3600).contains($0) } == true)
            #expect(refused.header("content-type")?.hasPrefix("text/html") == true)
            #expect(refused.text.contains("Zu viele Anfragen. Bitte warten Sie 60 Minuten"), "in the visitor's language")
            // The refused registration made no account; pages and sign-in are not limited.
            #expect(try await browser.submit(from: "/login", to: "/login", form: "email=eleven%40example.com&password=long-enough-1").status == 422)
            #expect(try await browser.send("/").status == 200)
        }
    }

    @Test func aShopperPastTheCheckoutLimitWaitsAndOthersDoNot() async throws {
        try await TestStorefront.run(environment: ["CHECKOUT_LIMIT": "2/minute"]) { shop in
            let busy = TestClient(port: shop.port)
            _ = try await OrderFlowTests.newShopperOrders(1, of: 2, in: busy, name: "Busy")
            for attempt in 2...3 {
                _ = try await busy.submit(from: "/products/2", to: "/cart/items", form: "productID=2&quantity=1")
                let placed = try await busy.submit(from: "/checkout", to: "/checkout", form: "")
                if attempt == 2 {
                    #expect(placed.status == 303)
                } else {
                    #expect(placed.status == 429)
                    #expect(placed.header("retry-after").flatMap(Int.init).map { (1...60).contains($0) } == true)
                    #expect(placed.text.contains("Too many requests. Please wait"))
                }
            }
            #expect(try await busy.send("/cart").markup.first("data-cart-count")?["data-cart-count"] == "1", "the refused order's cart is kept")
            _ = try await OrderFlowTests.newShopperOrders(1, of: 2, in: TestClient(port: shop.port), name: "Calm")
        }
    }
}
