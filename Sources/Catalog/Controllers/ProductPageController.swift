import Tessera
import TesseraViews

/// `/products/{id}`: a container, kept whole for visitors without a session. Its regions are the
/// detail, the related products, and whatever other modules provide for the catalog's extension
/// points (add to cart; your purchases, for a signed-in shopper, who gets the page rendered).
struct ProductPageController: KeptPage {
    let catalog: CatalogService
    let photos: PhotoService
    let id: Int

    /// The page shows the product's name and summary; its regions declare the rest.
    var keptUntil: [Topic] { [CatalogTopics.product(id)] }

    func load(_ context: KeptPageContext) async throws -> Product {
        try await catalog.product(id: id, within: context.databaseBudget)
    }

    func render(_ product: Product, in context: KeptPageContext) -> Page {
        Page(
            title: product.name, body: context.render(ProductPageView.self, product),
            description: "\(product.name): \(product.summary)",
            // One URL per language (`?lang=de`) and one that negotiates: the canonical URL and
            // the `hreflang` alternates tie them together.
            canonicalPath: product.url)
    }

    func regions(for product: Product, in context: KeptPageContext) -> ProductPageView.Regions<Region> {
        ProductPageView.Regions(
            detail: context.region(shared: CatalogRoutes.detail, id, isRequired: true),
            addToCart: context.region(providedFor: CatalogRegions.addToCart, input: product),
            purchases: context.region(providedFor: CatalogRegions.purchases, input: product),
            related: context.region(shared: CatalogRoutes.related, id)
        )
    }
}

/// The product itself: photo, price, stock, description.
struct ProductDetailRegion: SharedRegion {
    typealias View = ProductDetailView
    let catalog: CatalogService
    let photos: PhotoService

    func topics(_ id: Int) -> [Topic] { [CatalogTopics.product(id)] }

    /// The same for every visitor: kept until the product changes (stock, price, photo).
    func keptUntil(_ id: Int) -> [Topic] { topics(id) }

    func load(_ id: Int, in context: SharedRegionContext) async throws -> ProductDetail {
        let product = try await catalog.product(id: id, within: context.databaseBudget)
        // Shown at half a desktop page, or the phone's whole width less the page's padding.
        let picture = try await photos.pictures(of: [product.id], within: context.databaseBudget)[product.id].map {
            ProductPicture($0, alt: product.name, sizes: "(max-width: 700px) calc(100vw - 2rem), 480px", eager: true)
        }
        return ProductDetail(product: product, picture: picture)
    }
}

/// Other products of the same category, below the fold: their photos load lazily.
struct RelatedProductsRegion: SharedRegion {
    typealias View = RelatedProductsView
    let catalog: CatalogService
    let photos: PhotoService

    /// The same for every visitor: kept until any product changes, since which products are
    /// related, and their stock and prices, are known only once read.
    func keptUntil(_ id: Int) -> [Topic] { [CatalogTopics.product.any] }

    func load(_ id: Int, in context: SharedRegionContext) async throws -> [ProductCard] {
        let related = try await catalog.related(to: try await catalog.product(id: id, within: context.databaseBudget), within: context.databaseBudget)
        return try await ProductCard.cards(for: related, photos: photos, eagerCount: 0, within: context.databaseBudget)
    }

    func failureFragment(for error: any Error, in context: SharedRegionContext) -> HTMLOutput {
        var output = HTMLOutput(capacity: 96, language: context.language)
        output.write(static: "<p class=\"region-failed\" role=\"status\">")
        output.text(Messages.relatedUnavailable)
        output.write(static: "</p>")
        return output
    }
}
