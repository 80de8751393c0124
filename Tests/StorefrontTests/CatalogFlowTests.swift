import Foundation
import TesseraTesting
import Testing

/// The catalog scraped over HTTP from a real storefront on a fresh SQLite data directory.
@Suite(.serialized) struct CatalogFlowTests {
    static func matches(_ pattern: String, in text: String) -> [String] {
        let regex = try! Regex(pattern)
        return text.matches(of: regex).map { String($0.output[1].substring ?? "") }
    }

    /// The href of the link with `rel` or with `label`, as a browser would follow it.
    static func link(_ text: String, rel: String? = nil, label: String? = nil) -> String? {
        let pattern = rel.map { #"<a rel="\#($0)" href="([^"]+)">"# } ?? #"<a href="([^"]+)">\#(label!)</a>"#
        return matches(pattern, in: text).first?.replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test func listsTwelveProductsAPageWithPagination() async throws {
        try await TestStorefront.run { shop in
            let first = try await shop.get("/")
            #expect(first.status == 200)
            #expect(first.text.contains("<title>All products · Tessera Shop</title>"))
            let ids = Self.matches(#"data-product-id="(\d+)""#, in: first.text)
            #expect(ids.count == 12)
            #expect(Set(ids).count == 12)
            #expect(first.text.contains("Showing 1–12 of 40 products"))
            #expect(first.text.contains(#"<span aria-current="page">Page 1 of 4</span>"#))
            #expect(Self.link(first.text, rel: "next") == "/?page=2&after=\(ids.last!)", "the next page starts after this one's last product")

            // Forwards by Next, then back by Previous: every product once, the same pages.
            var pages = [ids], reply = first
            while let next = Self.link(reply.text, rel: "next") {
                reply = try await shop.get(next)
                #expect(reply.status == 200, "\(next)")
                pages.append(Self.matches(#"data-product-id="(\d+)""#, in: reply.text))
            }
            #expect(pages.map(\.count) == [12, 12, 12, 4])
            #expect(Set(pages.flatMap { $0 }).count == 40, "every product on exactly one page")
            #expect(reply.text.contains("Page 4 of 4") && Self.link(reply.text, label: "Last") == nil)
            var backwards = [pages.last!]
            while let previous = Self.link(reply.text, rel: "prev") {
                reply = try await shop.get(previous)
                backwards.insert(Self.matches(#"data-product-id="(\d+)""#, in: reply.text), at: 0)
            }
            #expect(backwards == pages)

            // Last jumps to the end; the second page by number is the second page by Next.
            let last = try await shop.get(try #require(Self.link(first.text, label: "Last")))
            #expect(Self.matches(#"data-product-id="(\d+)""#, in: last.text) == pages[3])
            #expect(Self.matches(#"data-product-id="(\d+)""#, in: try await shop.get("/?page=2").text) == pages[1])
        }
    }

    @Test func filtersByCategoryAndSortsByPrice() async throws {
        try await TestStorefront.run { shop in
            let kitchen = try await shop.get("/?category=kitchen&sort=price")
            let prices = Self.matches(#"data-price-minor="(\d+)""#, in: kitchen.text).compactMap(Int.init)
            #expect(prices.count == 8)
            #expect(prices == prices.sorted())
            #expect(kitchen.text.contains(#"<a href="/?category=kitchen&amp;sort=price" aria-current="page">Kitchen</a>"#))

            let descending = Self.matches(#"data-price-minor="(\d+)""#, in: try await shop.get("/?category=kitchen&sort=price-desc").text).compactMap(
                Int.init)
            #expect(descending == prices.reversed())
            let names = Self.matches(#"<h2><a href="/products/\d+">([^<]+)</a></h2>"#, in: try await shop.get("/?category=lighting").text)
            #expect(names == names.sorted { $0.lowercased() < $1.lowercased() })
        }
    }

    @Test func searchesAsPlainText() async throws {
        try await TestStorefront.run { shop in
            let lamps = try await shop.get("/?q=lamp")
            #expect(Self.matches(#"data-product-id="(\d+)""#, in: lamps.text).count == 3, "Arc Floor, Brass Desk and Opal Table")
            #expect(lamps.text.contains(#"value="lamp""#))
            #expect(lamps.text.contains("<h1>Search results for “lamp”</h1>"))
            #expect(lamps.text.contains("<title>“lamp” · All products · Tessera Shop</title>"))
            let none = try await shop.get("/?q=zzz")
            #expect(none.text.contains("No products match “zzz”."), "an empty result repeats the query")
            // SQL and FTS5 syntax: `"`, `*`, NEAR, `-`, `'`, `%`, `(`, a lone `"`, and worse.
            for injection in [
                "%27%20OR%201%3D1%20--", "%25", "_", "%22%3B%20DROP%20TABLE%20product%3B%20--",
                "%22", "*", "NEAR", "-", "%27", "(", "NEAR(a%20b)", "%22%22", "a%20OR%20b", "name%3Azzz", "zz%00zz", "%22%00",
            ] {
                let reply = try await shop.get("/?q=\(injection)")
                #expect(reply.status == 200, "\(injection)")
                #expect(reply.text.contains("No products match “"), "\(injection) is just text")
            }
            #expect(Self.matches(#"data-product-id="(\d+)""#, in: try await shop.get("/").text).count == 12, "the table is still there")
        }
    }

    @Test func searchTextComesBackEscaped() async throws {
        try await TestStorefront.run { shop in
            let reply = try await shop.get("/?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E%22")
            #expect(reply.status == 200)
            #expect(!reply.text.contains("<script>alert(1)"))
            #expect(reply.text.contains(#"value="&lt;script&gt;alert(1)&lt;/script&gt;&quot;""#))
            #expect(reply.text.contains("<title>“&lt;script&gt;alert(1)&lt;/script&gt;&quot;” · All products · Tessera Shop</title>"))
        }
    }

    @Test func badListingRequestsAreClientErrors() async throws {
        try await TestStorefront.run { shop in
            for (target, status) in [
                ("/?page=0", 400), ("/?page=abc", 400), ("/?page=99", 400), ("/?page=3&after=9999", 404),
                ("/?page=2&after=1&before=2", 400), ("/?after=x&page=2", 400), ("/?sort=random", 400), ("/?category=toys", 404),
            ] {
                let reply = try await shop.get(target)
                #expect(reply.status == status, "\(target)")
                #expect(reply.text.contains("Tessera Shop</title>"), "an error page in the site layout: \(target)")
            }
        }
    }

    @Test func productPageIsAContainerOfRegions() async throws {
        try await TestStorefront.run { shop in
            let page = try await shop.get("/products/3")
            #expect(page.status == 200)
            #expect(page.text.contains(#"data-view="ProductPage" data-product-id="3""#))
            #expect(page.text.contains(#"<div data-region="detail" data-region-src="/products/3/detail" data-region-version=""#))
            // Kept for every visitor, with its version.
            #expect(page.text.contains(#"<div data-region="related" data-region-src="/products/3/related" data-region-version=""#))
            #expect(Self.matches(#"class="product-card" data-view="ProductCard" data-product-id="(\d+)""#, in: page.text).count == 4)
            #expect(!page.text.contains(#"data-region="purchases""#), "nobody provides it yet")
            #expect(Self.matches(#"<a [^>]*>\s*(<img)"#, in: page.text).isEmpty, "one link per card, on its name: no unnamed image links")
            // schema.org microdata for crawlers: a Product with its Offer.
            #expect(page.text.contains(#"itemscope itemtype="https://schema.org/Product""#))
            #expect(page.text.contains(#"itemprop="offers" itemscope itemtype="https://schema.org/Offer""#))
            #expect(Self.matches(#"<meta itemprop="price" content="(\d+\.\d\d)">"#, in: page.text).count == 1)
            #expect(page.text.contains(#"<meta itemprop="priceCurrency" content="USD">"#))
            #expect(page.text.contains(#"<link itemprop="availability" href="https://schema.org/InStock">"#))
            for source in ["/products/3/detail", "/products/3/related"] {
                let fragment = try await shop.get(source)
                #expect(fragment.status == 200)
                #expect(!fragment.text.contains("<html"))
            }
            let image = try await shop.get("/images/products/3.svg")
            #expect(image.status == 200)
            #expect(image.header("content-type") == "image/svg+xml")
        }
    }

    @Test func unknownOrNonNumericProductsAre404() async throws {
        try await TestStorefront.run { shop in
            for target in ["/products/abc", "/products/9999", "/products/-1", "/products/1.5", "/products/abc/detail"] {
                let reply = try await shop.get(target)
                #expect(reply.status == 404, "\(target)")
                #expect(reply.text.contains("data-status=\"404\""), "\(target)")
            }
        }
    }
}
