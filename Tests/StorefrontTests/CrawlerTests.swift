import Foundation
import TesseraTesting
import Testing

/// What search engines read: robots.txt, the sitemap, canonical links and descriptions.
@Suite struct CrawlerTests {
    @Test func robotsKeepCrawlersOnTheCatalogAndPointToTheSitemap() async throws {
        try await TestStorefront.run { shop in
            let robots = try await shop.get("/robots.txt")
            #expect(robots.status == 200)
            #expect(robots.header("content-type") == "text/plain; charset=utf-8")
            let lines = robots.text.split(separator: "\n").map(String.init)
            for path in ["/cart", "/checkout", "/orders", "/account", "/login", "/register", "/password/", "/products/*/", "/*?*sort="] {
                #expect(lines.contains("Disallow: \(path)"), "\(path)")
            }
            #expect(!lines.contains("Disallow: /"), "the catalog stays open")
            // Without PUBLIC_URL, the request's own host (`RawHTTPClient` sends `Host: localhost`).
            #expect(lines.contains("Sitemap: http://localhost/sitemap.xml"), "\(lines)")
            let port = shop.port
            let named = try await onThread {
                let client = try RawHTTPClient(port: port)
                try client.send("GET /robots.txt HTTP/1.1\r\nHost: shop.test:8080\r\n\r\n")
                return try client.readReply()
            }
            #expect(named.text.contains("Sitemap: http://shop.test:8080/sitemap.xml"))
        }
    }

    @Test func theSitemapListsEveryCategoryAndProductAtThePublicURL() async throws {
        try await TestStorefront.run(environment: ["PUBLIC_URL": "https://shop.example.com/"]) { shop in
            let sitemap = try await shop.get("/sitemap.xml")
            #expect(sitemap.status == 200)
            #expect(sitemap.header("content-type") == "application/xml; charset=utf-8")
            #expect(sitemap.text.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
            let locations = sitemap.text.matches(of: /<loc>([^<]*)<\/loc>/).map { String($0.1) }
            let pages = 1 + 5 + 40
            #expect(locations.count == pages * 2, "the home page, 5 categories, 40 products, in English and German")
            #expect(locations.first == "https://shop.example.com/?lang=en")
            #expect(locations.contains("https://shop.example.com/?category=kitchen&amp;lang=de"))
            #expect(locations.contains("https://shop.example.com/products/40?lang=de"))
            #expect(Set(locations).count == locations.count)
            // Each language's URL names the other, and the URL that negotiates as x-default.
            let entry = try #require(sitemap.text.firstMatch(of: /<url><loc>https:\/\/shop.example.com\/products\/40\?lang=de<\/loc>(.*)<\/url>/)?.1)
            #expect(entry.contains(#"<xhtml:link rel="alternate" hreflang="en" href="https://shop.example.com/products/40?lang=en"/>"#))
            #expect(entry.contains(#"<xhtml:link rel="alternate" hreflang="de" href="https://shop.example.com/products/40?lang=de"/>"#))
            #expect(entry.contains(#"<xhtml:link rel="alternate" hreflang="x-default" href="https://shop.example.com/products/40"/>"#))
            // Every listed page exists, in its language.
            for location in locations where location.contains("/products/") || location.contains("category") {
                let path = String(location.dropFirst("https://shop.example.com".count)).replacingOccurrences(of: "&amp;", with: "&")
                let page = try await shop.get(path)
                #expect(page.status == 200, "\(path)")
                #expect(page.text.contains(path.hasSuffix("lang=de") ? #"<html lang="de">"# : #"<html lang="en">"#), "\(path)")
            }
            // A forged Host changes nothing once PUBLIC_URL is set.
            let port = shop.port
            let forged = try await onThread {
                let client = try RawHTTPClient(port: port)
                try client.send("GET /robots.txt HTTP/1.1\r\nHost: evil.example\r\n\r\n")
                return try client.readReply()
            }
            #expect(forged.text.contains("Sitemap: https://shop.example.com/sitemap.xml"))
        }
    }

    @Test func listingsNameTheirCanonicalURLAndEveryPageDescribesItself() async throws {
        try await TestStorefront.run(environment: ["PUBLIC_URL": "https://shop.example.com"]) { shop in
            let sorted = try await shop.get("/?category=kitchen&sort=price-desc&page=1")
            #expect(sorted.text.contains(#"<link rel="canonical" href="https://shop.example.com/?category=kitchen">"#))
            let second = try await shop.get("/?sort=price&page=2")
            #expect(second.text.contains(#"<link rel="canonical" href="https://shop.example.com/?page=2">"#))
            let product = try await shop.get("/products/3")
            #expect(product.text.contains(#"<link rel="canonical" href="https://shop.example.com/products/3">"#))
            #expect(product.text.contains(#"<link rel="alternate" hreflang="de" href="https://shop.example.com/products/3?lang=de">"#))
            let german = try await shop.get("/products/3?lang=de")
            #expect(
                german.text.contains(#"<link rel="canonical" href="https://shop.example.com/products/3?lang=de">"#),
                "a language's URL is its own page")
            for page in [sorted, second, product, try await shop.get("/cart")] {
                let description = try #require(page.text.firstMatch(of: /<meta name="description" content="([^"]+)">/)?.1)
                #expect(description.count > 20)
            }
            #expect(product.text.contains(#"<meta name="description" content="Paper Pendant: "#))
        }
    }

    @Test func aMalformedPublicURLIsRefusedAtStart() async throws {
        for bad in ["shop.example.com", "ftp://shop.example.com", "https://shop.example.com/path", "https://user@shop.example.com", "https://"] {
            let run = try ProcessHarness(product: "storefront", environment: ["PORT": "0", "PUBLIC_URL": bad, "DATA_DIR": NSTemporaryDirectory()])
            #expect(try await run.waitForExit(timeout: .seconds(30)) == 64, "\(bad)")
            #expect(run.log.contains("PUBLIC_URL"), "\(bad): \(run.log)")
        }
    }
}
