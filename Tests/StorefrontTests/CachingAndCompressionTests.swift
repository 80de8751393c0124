import Foundation
import TesseraTesting
import Testing

/// The storefront's answers as caches and slow networks see them: nothing private kept,
/// pages compressed for browsers, static files under content-hashed names, HEAD like GET.
@Suite struct CachingAndCompressionTests {
    @Test func signedInPagesAreNeverStoredAndAnonymousOnesAreRevalidated() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            // Without a session: the copies kept for everyone, which shared caches may keep too.
            #expect(try await browser.send("/").header("cache-control") == "public, no-cache")
            #expect(try await browser.send("/products/3").header("cache-control") == "public, no-cache")
            #expect(try await browser.send("/cart").header("cache-control") == "private, no-cache", "it asked who is signed in")
            try await OrderFlowTests.signInAsAda(browser)
            for path in ["/", "/orders", "/orders/1", "/orders/1/status", "/account", "/checkout", "/cart", "/products/1", "/products/1/purchases"] {
                let page = try await browser.send(path)
                #expect(page.header("cache-control") == "private, no-store", "\(path) answered \(page.status)")
                #expect(page.header("etag") == nil, "\(path): a signed-in page has no version to revalidate")
            }
            let signedOut = try await browser.submit(from: "/", to: "/logout", form: "")
            #expect(signedOut.header("cache-control") == "private, no-store", "the sign-out's own answer")
            let farewell = try await browser.send("/")
            #expect(farewell.text.contains("You are signed out.") && farewell.header("cache-control") == "private, no-cache", "the flash, once")
            #expect(browser.cookie == nil, "the flash shown, the session held nothing, and its cookie went")
            #expect(try await browser.send("/").header("cache-control") == "public, no-cache", "without a session again")
        }
    }

    @Test func aReturningVisitorsRepeatViewIs304UntilTheProductChanges() async throws {
        try await TestStorefront.run { shop in
            let visitor = TestClient(port: shop.port)
            var tags: [String: String] = [:]
            var listShowsProduct4 = false
            for path in ["/products/4", "/"] {
                let first = try await visitor.send(path)
                #expect(first.header("set-cookie") == nil, "\(path): a first visit keeps nothing")
                let tag = try #require(first.header("etag"), "\(path): a first visit has a validator")
                tags[path] = tag
                if path == "/" { listShowsProduct4 = first.text.contains(#"data-product-id="4""#) }
                let repeated = try await visitor.send(path, headers: ["If-None-Match": tags[path]!])
                #expect(repeated.status == 304, "\(path)")
                #expect(repeated.header("cache-control") == "public, no-cache", "\(path)")
                #expect(repeated.body.isEmpty)
            }

            let sam = try await BackOfficeTests.staff(shop)
            let list = try await sam.send("/admin/products")
            let stock = try #require(list.markup.first("id", equalTo: "expected-stock-4")?["value"])
            let saved = try await sam.submit(
                from: "/admin/products", to: "/admin/products/4", form: "stock=\(stock)&price=23.45&page=1&expectedStock=\(stock)")
            #expect(saved.status == 303)

            let product = try await visitor.send("/products/4", headers: ["If-None-Match": tags["/products/4"]!])
            #expect(product.status == 200, "the price changed: the kept version ended")
            #expect(product.text.contains(#"data-price-minor="2345""#))
            let newTag = try #require(product.header("etag"))
            #expect(newTag != tags["/products/4"])
            #expect(try await visitor.send("/products/4", headers: ["If-None-Match": newTag]).status == 304)
            // The list hears any product's change and renders again; its bytes tell whether it changed.
            let listing = try await visitor.send("/", headers: ["If-None-Match": tags["/"]!])
            #expect(listing.status == (listShowsProduct4 ? 200 : 304), "the list's first page shows product 4: \(listShowsProduct4)")
        }
    }

    @Test func pagesAreGzippedForBrowsersAndStaticFilesAreFingerprinted() async throws {
        try await TestStorefront.run(seeded: true) { shop in
            let plain = try await shop.get("/")
            let port = shop.port
            let gzipped = try await onThread { try RawHTTPClient.request(port: port, "/", headers: ["Accept-Encoding": "gzip, deflate, br"]) }
            #expect(gzipped.header("content-encoding") == "gzip")
            // The page also depends on the language the browser asks for, or chose (a cookie), and
            // on the compression dictionary it names.
            #expect(
                plain.header("vary") == "Accept-Language, Cookie, Accept-Encoding, Available-Dictionary"
                    && gzipped.header("vary") == plain.header("vary"))
            #expect(gzipped.body.count * 3 < plain.body.count, "\(gzipped.body.count) of \(plain.body.count) bytes")
            #expect(gzipped.decodedText?.contains(#"data-view="ProductList""#) == true)

            // The layout links the stylesheet by its content hash; that URL is cached for a year.
            let stylesheet = try #require(plain.text.firstMatch(of: /<link rel="stylesheet" href="(\/css\/site\.[0-9a-f]{10}\.css)">/)?.1)
            let css = try await onThread { try RawHTTPClient.request(port: port, String(stylesheet), headers: ["Accept-Encoding": "gzip"]) }
            #expect(css.status == 200)
            #expect(css.header("cache-control") == "public, max-age=31536000, immutable")
            #expect(css.header("content-encoding") == "gzip")
            #expect(
                css.decodedText == (try String(contentsOf: ProcessHarness.packageRoot.appendingPathComponent("Public/css/site.css"), encoding: .utf8))
            )
            let icon = try #require(plain.text.firstMatch(of: /<link rel="icon" href="(\/favicon\.[0-9a-f]{10}\.svg)"/)?.1)
            #expect(try await shop.get(String(icon)).header("cache-control") == "public, max-age=31536000, immutable")
            // Product photos are named by their content too.
            let photo = try #require(plain.text.firstMatch(of: /<img src="(\/photos\/[0-9a-f]{16}-640\.jpg)"/)?.1)
            #expect(try await shop.get(String(photo)).header("cache-control") == "public, max-age=31536000, immutable")
            #expect(plain.text.contains(#"<script src="/js/regions."#))
        }
    }

    @Test func headOnAPageSendsTheHeadersAndLengthOfGet() async throws {
        try await TestStorefront.run { shop in
            let port = shop.port
            for path in ["/", "/products/2", "/cart"] {
                for headers in [[:], ["Accept-Encoding": "gzip"]] as [[String: String]] {
                    let (head, next) = try await onThread {
                        let client = try RawHTTPClient(port: port)
                        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
                        try client.send("HEAD \(path) HTTP/1.1\r\nHost: localhost\r\n\(extra)\r\n")
                        let head = try client.readReply(head: true)
                        // Nothing after the head: the next answer on the connection is in step.
                        try client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                        return (head, try client.readReply())
                    }
                    let get = try await onThread { try RawHTTPClient.request(port: port, path, headers: headers) }
                    #expect(head.status == 200 && next.status == 200, "\(path) \(headers)")
                    #expect(head.header("transfer-encoding") == nil)
                    #expect(head.header("content-type") == get.header("content-type"))
                    #expect(head.header("content-encoding") == get.header("content-encoding"))
                    #expect(head.header("cache-control") == get.header("cache-control"))
                    let length = try #require(head.header("content-length").flatMap(Int.init), "\(path) \(headers)")
                    if headers.isEmpty {
                        // Each request gets a new token of the same length: the same number of bytes.
                        #expect(length == get.body.count, "\(path)")
                    } else {
                        #expect(length > 0 && abs(length - get.body.count) < 200, "\(path): HEAD \(length), GET \(get.body.count)")
                    }
                }
            }
        }
    }
}
