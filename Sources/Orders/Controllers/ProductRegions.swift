import Accounts
import Catalog
import Tessera
import TesseraViews

/// The add-to-cart form, in the product page's `add-to-cart` region.
struct AddToCartRegion: RegionController {
    let product: Product

    func render(in context: RequestContext) async throws -> HTMLOutput {
        AddToCartView.render(AddToCartModel(product: product, quantity: "1", error: nil))
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
        return PurchasesView.render(PurchasesModel(purchases))
    }
}

/// The purchases fragment for a visitor: nothing to show.
struct EmptyRegion: RegionController {
    func render(in context: RequestContext) async throws -> HTMLOutput { HTMLOutput(capacity: 0) }
}

/// A product-page region at its own URL: the product loaded first, so an unknown id is a 404.
struct ProductFragment: RegionController {
    let catalog: CatalogService
    let id: Int
    let child: @Sendable (Product) -> any RegionController

    func render(in context: RequestContext) async throws -> HTMLOutput {
        guard let product = try await catalog.existingProduct(id: id) else { throw HTTPError(.notFound, message: "There is no product \(id).") }
        return try await child(product).render(in: context)
    }
}
