import Catalog
import Tessera
import TesseraViews

/// A product-page region at its own URL: the product is loaded first, so an unknown id is a 404,
/// then `child` answers for it.
struct ProductLoadingRegion: RegionController {
    let catalog: CatalogService
    let id: Int
    let child: @Sendable (Product) -> any RegionController

    var topics: [Topic] { [CatalogTopics.product(id)] }

    func render(in context: RequestContext) async throws -> HTMLOutput {
        try await child(try await catalog.product(id: id, within: context.databaseBudget)).render(in: context)
    }
}
