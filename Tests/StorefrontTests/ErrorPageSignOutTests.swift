import Foundation
import TesseraTesting
import Testing

/// Every error page is a page of the site: it knows who is signed in, and its "Sign out" form
/// works from it.
@Suite struct ErrorPageSignOutTests {
    /// A way to land on an error page, signed in as Ada.
    struct Case: Sendable {
        let status: Int
        let reach: @Sendable (TestClient, Int) async throws -> TestResponse
    }

    static let cases: [Case] = [
        // A form another site posted.
        Case(status: 403) { browser, _ in
            try await browser.send("/cart/items", method: "POST", form: "productID=2&quantity=1", headers: ["Sec-Fetch-Site": "cross-site"])
        },
        Case(status: 404) { browser, _ in try await browser.send("/no/such/page") },
        Case(status: 405) { browser, _ in try await browser.send("/orders", method: "DELETE") },
        // Order #3 is cancelled: paying it is a conflict.
        Case(status: 409) { browser, _ in try await browser.submit(from: "/orders/3", to: "/orders/3/pay", form: "idempotencyKey=k-409") },
        // Refused by the server itself, before the app reads the body.
        Case(status: 413) { browser, port in
            let cookie = browser.cookie ?? ""
            return try await onThread {
                let client = try RawHTTPClient(port: port)
                try client.send(
                    "POST /cart/items HTTP/1.1\r\nHost: x\r\nCookie: \(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\nExpect: 100-continue\r\nContent-Length: 5000000\r\n\r\n"
                )
                return try client.readReply()
            }
        },
        // A form sent back with its error.
        Case(status: 422) { browser, _ in try await browser.submit(from: "/products/2", to: "/cart/items", form: "productID=2&quantity=0") },
    ]

    @Test func signingOutWorksFromEveryErrorPage() async throws {
        try await TestStorefront.run { shop in
            for errorCase in Self.cases {
                let browser = TestClient(port: shop.port)
                _ = try await browser.submit(from: "/login", to: "/login", form: "email=ada%40example.com&password=ada-lovelace-1815")
                let page = try await errorCase.reach(browser, shop.port)
                #expect(page.status == errorCase.status)
                #expect(page.text.contains(#"data-signed-in-as="Ada Lovelace""#), "\(errorCase.status): the page knows the shopper")
                let markup = page.markup
                #expect(markup.first("action", equalTo: "/logout") != nil, "\(errorCase.status): a sign-out form")

                let out = try await browser.send("/logout", method: "POST", form: "")
                #expect(out.status == 303, "\(errorCase.status): signing out from the error page")
                let home = try await browser.send("/")
                #expect(!home.text.contains("data-signed-in-as"), "\(errorCase.status): signed out")
                #expect(home.text.contains("You are signed out."))
            }
        }
    }
}
