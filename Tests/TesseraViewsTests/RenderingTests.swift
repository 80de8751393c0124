import Foundation
import TesseraViews
import Testing

@Suite struct RenderingTests {
    static let products = [
        Product(id: 1, name: "Lamp <LED>", priceMinor: 1999, inStock: true),
        Product(id: 2, name: "Chair", priceMinor: 4500, inStock: false),
        Product(id: 3, name: "Desk", priceMinor: 12000, inStock: true),
    ]

    @Test func loopsWithIndexAndFirstLastFlags() {
        let html = CatalogView.render(Catalog(products: Self.products, featured: nil)).string
        #expect(html.contains(#"<li class="first" data-index="1">"#))
        #expect(html.contains(#"<li class="" data-index="2">"#))
        #expect(html.contains(#"<li class=" last" data-index="3">"#))
        #expect(html.components(separatedBy: "<article").count == 4)
        #expect(html.contains("<p>That is all.</p>"))
    }

    @Test func singleItemIsBothFirstAndLastAndEmptyListRendersNoItems() {
        let one = CatalogView.render(Catalog(products: [Self.products[0]], featured: nil)).string
        #expect(one.contains(#"<li class="first last" data-index="1">"#))
        let none = CatalogView.render(Catalog(products: [], featured: nil, hasMore: true)).string
        #expect(!none.contains("<li"))
        #expect(!none.contains("That is all"))
    }

    @Test func aTextTemplateWritesItsValuesUnescaped() {
        let text = ProductCardTextView.render(Self.products[0])
        #expect(text == "Lamp <LED> — $19.99\nIn stock <today> & \"ready\"\n")
        #expect(ProductCardTextView.render(Self.products[1]).hasSuffix("Sold out\n"))
    }

    @Test func optionalsUnwrapAndElseIfAndElse() {
        let featured = CatalogView.render(Catalog(products: [], featured: Self.products[0])).string
        #expect(featured.contains(#"<aside class="featured">LAMP &lt;LED&gt;</aside>"#))
        let elseIf = CatalogView.render(Catalog(products: [], featured: nil, showEmptyFeatured: true)).string
        #expect(elseIf.contains(#"<aside class="featured">none</aside>"#))
        let otherwise = CatalogView.render(Catalog(products: [], featured: nil)).string
        #expect(otherwise.contains("<!-- no featured -->"))
        #expect(!otherwise.contains("<aside"))
    }

    @Test func nestedViewRendersItsOwnModel() {
        let html = ProductCardView.render(Self.products[1]).string
        #expect(
            html == """
                <article data-view="ProductCard" data-product-id="2">
                  <h2>Chair</h2>
                  <p class="price" data-price-minor="4500">$45.00</p>
                  <span class="stock out">Sold out</span>
                </article>

                """)
    }

    @Test func pageFillsLayoutBlocksAndKeepsDefaults() {
        let page = ProductPage(layout: LayoutModel(siteName: "Shop & Co", userName: "<ada>"), product: Self.products[0])
        let output = ProductPageView.render(page)
        let html = output.string
        #expect(html.contains("<title>Lamp &lt;LED&gt; · Shop &amp; Co</title>"))
        #expect(html.contains("<nav>&lt;ada&gt;</nav>"))
        #expect(html.contains(#"<main>"#) && html.contains(#"data-product-id="1""#))
        #expect(html.contains("<footer>default footer</footer>"), "an unfilled block shows the layout's default")
        #expect(html.hasPrefix("<!DOCTYPE html>"), "declaration lines leave no blank lines")

        // The region slot survives being moved into the layout, at the right offset.
        #expect(output.regions.count == 1)
        let slot = try! #require(output.regions.first)
        #expect(slot.name == "related")
        let before = String(decoding: output.bytes[..<slot.offset], as: UTF8.self)
        #expect(before.hasSuffix(#"<div data-region="related">"#))
    }

    @Test func theAssetFilterLinksTheFingerprintsTheRenderingWasGiven() {
        let assets = AssetURLs(["/css/site.css": "/css/site.0123456789.css", "/images/a.svg": "/images/a.9876543210.svg"])
        let html = AssetsView.render("/images/a.svg", assets: assets).string
        #expect(html == #"<link rel="stylesheet" href="/css/site.0123456789.css"><img src="/images/a.9876543210.svg" alt="">"# + "\n")
        // Without a map (a test, a benchmark), or for a path it does not know: the plain path.
        #expect(AssetsView.render("/unknown.png").string.contains(#"href="/css/site.css"><img src="/unknown.png""#))
    }

    @Test func filtersIncludingAppDefinedOnes() {
        let sample = FilterSample(name: "Ada", blurb: "A long description", when: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(FiltersView.render(sample).string.contains("<p>ADA|ada|A long …|2023-11-14|ADA!</p>"))
    }

    @Test func protocolModelsRenderAnyConformingType() {
        let order = Order(id: 7, status: "awaiting_payment", totalMinor: 2500)
        #expect(OrderRowView.render(order).string.contains(#"<tr data-order-id="7"><td>Awaiting Payment</td><td>$25</td></tr>"#))
    }

    @Test func integersAreWrittenExactly() {
        for value in [0, 7, -42, Int.max, Int.min] {
            var output = HTMLOutput()
            output.text(value)
            #expect(output.string == String(value))
        }
    }
}
