import Catalog
import Foundation
import PostgresTestSupport
import Tessera
import TesseraTesting
import Testing

/// The sitemap in parts, as a catalog past 50,000 products needs: here parts of 15 products, so
/// the demo's 40 make an index of 3.
@Suite struct SitemapTests {
    @Test(arguments: StoreKind.allCases)
    func aLargeCatalogGetsAnIndexOfPartsThatListEveryProductOnce(_ kind: StoreKind) async throws {
        try await CatalogDatabase.with(kind) { catalog in
            var app = ApplicationBuilder()
            app.register(
                CatalogModule(catalog: CatalogService(store: catalog.store, topics: LiveRegions(), sitemapPartSize: 15), photos: catalog.photos))
            try await app.build(middleware: [ErrorPageMiddleware()]).test { client in
                let index = try await client.send("/sitemap.xml")
                #expect(index.status == 200 && index.header("content-type") == "application/xml; charset=utf-8")
                #expect(index.text.contains(#"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#))
                let parts = index.text.matches(of: /<sitemap><loc>([^<]*)<\/loc><\/sitemap>/).map { String($0.1) }
                #expect(parts.count == 3 && parts.allSatisfy { $0.hasPrefix("http") && $0.contains("/sitemap.xml?part=") }, "\(parts)")

                var products: [String] = []
                var others: [String] = []
                for part in 1...3 {
                    let reply = try await client.send("/sitemap.xml?part=\(part)")
                    #expect(reply.status == 200 && reply.text.contains("<urlset"))
                    let locations = reply.text.matches(of: /<loc>([^<]*)<\/loc>/).map { String($0.1) }
                    products += locations.filter { $0.contains("/products/") }
                    others += locations.filter { !$0.contains("/products/") }
                    #expect(locations.filter { $0.contains("/products/") }.count == (part == 3 ? 10 : 15))
                }
                #expect(Set(products).count == 40 && products.count == 40, "every product once")
                #expect(others.count == 1 + CatalogSeed.categories.count, "the home page and the categories, in part 1")
                for (target, status) in [("/sitemap.xml?part=4", 404), ("/sitemap.xml?part=0", 404), ("/sitemap.xml?part=x", 400)] {
                    #expect(try await client.send(target).status == status, "\(target)")
                }
            }
        }
    }
}
