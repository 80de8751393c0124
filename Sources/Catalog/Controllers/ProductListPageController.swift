import Tessera
import TesseraViews

/// `/`: products, 12 a page, by category, searched and sorted, from the query string.
struct ProductListPageController: PageController {
    let catalog: CatalogService

    func load(_ context: RequestContext) async throws -> CatalogService.Listing {
        let query = context.request.query
        return try await catalog.listing(category: query["category"], search: query["q"], sort: query["sort"], page: query["page"],
                                         after: query["after"], before: query["before"])
    }

    func render(_ listing: CatalogService.Listing, in context: RequestContext) -> Page {
        let page = ProductListPage(listing)
        return Page(title: page.title, body: context.render(ProductListView.self, page),
                    description: page.description, canonicalPath: page.canonicalPath)
    }
}
