import Tessera
import TesseraViews

/// `/`: products, 12 a page, by category, searched and sorted, from the query string; kept
/// whole for visitors without a session, one copy per query.
struct ProductListPageController: KeptPage {
    let catalog: CatalogService
    let photos: PhotoService

    /// Any product's change (a price, the stock, a photo, a new product) may change the list.
    var keptUntil: [Topic] { [CatalogTopics.product.any] }

    func load(_ context: KeptPageContext) async throws -> (listing: CatalogService.Listing, cards: [ProductCard]) {
        let query = context.query
        let listing = try await catalog.listing(
            category: query["category"], search: query["q"], sort: query["sort"], page: query["page"],
            after: query["after"], before: query["before"], within: context.databaseBudget)
        // The first row is above the fold on a desktop (four cards) and a phone (two): eager.
        return (listing, try await ProductCard.cards(for: listing.products, photos: photos, eagerCount: 4, within: context.databaseBudget))
    }

    func render(_ loaded: (listing: CatalogService.Listing, cards: [ProductCard]), in context: KeptPageContext) -> Page {
        var page = ProductListPage(loaded.listing, language: context.language)
        page.cards = loaded.cards
        return Page(
            title: page.title, body: context.render(ProductListView.self, page),
            description: page.description, canonicalPath: page.canonicalPath)
    }
}
