import Foundation
import TesseraTesting
import Testing

/// The shop's kept pages (the product list and product pages) on a real storefront: a visitor
/// without a session gets the copy kept for everyone, which holds nothing of any shopper and
/// sets no cookie; a shopper gets pages rendered for them; a change is seen by the next view.
@Suite struct KeptPageFlowTests {
    @Test func aKeptPageNeverHoldsAShoppersData() async throws {
        try await TestStorefront.run { shop in
            // Ada signs in, fills her cart and gets a flash; her pages are rendered for her.
            let ada = try await BackOfficeTests.signedIn(shop, "ada@example.com", "ada-lovelace-1815")
            let added = try await ada.submit(from: "/products/2", to: "/cart/items", form: "productID=2&quantity=3")
            #expect(added.status == 303)
            let hers = try await ada.send("/products/2")
            #expect(hers.text.contains(#"data-signed-in-as="Ada Lovelace""#))
            #expect(hers.text.contains(#"data-cart-count="3""#))
            #expect(hers.header("cache-control") == "private, no-store")

            // Anyone without a session, before and after her: the kept copy, with none of it.
            for target in ["/", "/products/2", "/products/3", "/?q=tea", "/?category=kitchen&sort=price", "/?page=2"] {
                for visit in 1...2 {
                    let page = try await shop.get(target)
                    #expect(page.status == 200, "\(target)")
                    #expect(page.header("cache-control") == "public, no-cache", "\(target), visit \(visit)")
                    #expect(page.header("set-cookie") == nil, "\(target): a kept answer never carries a cookie")
                    #expect(page.header("etag")?.hasPrefix("\"") == true, "\(target)")
                    #expect(!page.text.contains("Lovelace") && !page.text.contains("data-signed-in-as"), "\(target)")
                    #expect(page.text.contains(#"data-cart-count="0""#), "\(target)")
                    #expect(!page.text.contains(#"class="flash""#), "\(target)")
                }
            }
            // A language chosen by hand is remembered in a session of the visitor's own: that answer is
            // the kept page's bytes, but private, with the cookie.
            let german = try await shop.get("/products/2?lang=de")
            #expect(german.header("set-cookie")?.hasPrefix("tessera_session=") == true)
            #expect(german.header("cache-control") == "private, no-cache")
            #expect(!german.text.contains("Lovelace") && german.text.contains(#"<html lang="de">"#))

            // And her next page is hers again, never the kept one.
            let again = try await ada.send("/")
            #expect(again.text.contains(#"data-signed-in-as="Ada Lovelace""#) && again.text.contains(#"data-cart-count="3""#))
        }
    }

    @Test func aRepeatViewIsA304AndAChangeIsSeenByTheNextView() async throws {
        try await TestStorefront.run { shop in
            let first = try await shop.get("/products/4")
            let eTag = try #require(first.header("etag"))
            let repeated = try await onThread { [port = shop.port] in
                try RawHTTPClient.request(port: port, "/products/4", headers: ["If-None-Match": eTag])
            }
            #expect(repeated.status == 304)
            // Staff sell out product 4: the next anonymous view shows it, at once.
            let sam = try await BackOfficeTests.staff(shop)
            let shown = try #require(try await sam.send("/admin/products").markup.first("id", equalTo: "expected-stock-4")?["value"])
            let saved = try await sam.submit(
                from: "/admin/products", to: "/admin/products/4", form: "stock=0&price=19.99&page=1&expectedStock=\(shown)")
            #expect(saved.status == 303)
            let after = try await shop.get("/products/4")
            #expect(after.text.contains("Sold out") && after.text.contains(#"data-price-minor="1999""#))
            #expect(after.header("etag") != eTag)
            let stale = try await onThread { [port = shop.port] in
                try RawHTTPClient.request(port: port, "/products/4", headers: ["If-None-Match": eTag])
            }
            #expect(stale.status == 200, "the old version is not answered 304")
        }
    }
}
