import Catalog
import Tessera
import TesseraViews

/// The add-to-cart form, in the product page's `add-to-cart` region.
struct AddToCartRegion: RegionController {
    let product: Product

    var topics: [Topic] { [CatalogTopics.product(product.id)] }

    func render(in context: RequestContext) async throws -> HTMLOutput {
        context.render(AddToCartView.self, AddToCartModel(product: product, quantity: "1", error: nil))
    }
}
