import Tessera
import TesseraViews

/// `/`: products, 12 a page, by category, searched and sorted, from the query string.
struct ProductListPageController: PageController {
    let catalog: CatalogService
    let photos: PhotoService

    /// Any product's change (a price, the stock, a photo, a new product) may change the list.
    var freshness: PageFreshness { .until([CatalogTopics.product.any]) }

    func load(_ context: RequestContext) async throws -> (listing: CatalogService.Listing, cards: [ProductCard]) {
        let query = context.request.query
        let listing = try await catalog.listing(
            category: query["category"], search: query["q"], sort: query["sort"], page: query["page"],
            after: query["after"], before: query["before"])
        // The first row is above the fold on a desktop (four cards) and a phone (two): eager.
        return (listing, try await ProductCard.cards(for: listing.products, photos: photos, eagerCount: 4))
    }

    func render(_ loaded: (listing: CatalogService.Listing, cards: [ProductCard]), in context: RequestContext) -> Page {
        var page = ProductListPage(loaded.listing, language: context.language)
        page.cards = loaded.cards
        return Page(
            title: page.title, body: context.render(ProductListView.self, page),
            description: page.description, canonicalPath: page.canonicalPath)
    }
}
