import Catalog
import Tessera
import TesseraViews

/// The add-to-cart form, in the product page's `add-to-cart` region.
struct AddToCartRegion: RegionController {
    let product: Product

    func render(in context: RequestContext) async throws -> HTMLOutput {
        context.render(AddToCartView.self, AddToCartModel(product: product, quantity: "1", error: nil))
    }
}

/// "Your purchases of this product", in the product page's `purchases` region: the signed-in
/// shopper's paid, shipped and completed orders of it. Empty when there are none.
struct PurchasesRegion: RegionController {
    let orders: OrderService
    let productID: Int
    let userID: Int

    func render(in context: RequestContext) async throws -> HTMLOutput {
        let purchases = try await orders.purchases(of: productID, by: userID)
        guard !purchases.isEmpty else { return try await EmptyRegion().render(in: context) }
        return context.render(PurchasesView.self, PurchasesModel(purchases))
    }
}

/// A product-page region at its own URL: the product is loaded first, so an unknown id is a 404,
/// then `child` answers for it.
struct ProductLoadingRegion: RegionController {
    let catalog: CatalogService
    let id: Int
    let child: @Sendable (Product) -> any RegionController

    func render(in context: RequestContext) async throws -> HTMLOutput {
        try await child(try await catalog.product(id: id)).render(in: context)
    }
}
