import Catalog
import Tessera

/// The add-to-cart form sent back with its error (422), with the product it is for: a quantity
/// the stock cannot serve, say, since stock can drop between page load and submit.
struct AddToCartPageController: PageController {
    let catalog: CatalogService
    let productID: Int
    let quantity: String
    let error: String?

    func load(_ context: RequestContext) async throws -> AddToCartModel {
        guard let product = try await catalog.existingProduct(id: productID, within: context.databaseBudget) else { throw CartError.unknownProduct }
        return AddToCartModel(product: product, quantity: quantity, error: error)
    }

    func render(_ model: AddToCartModel, in context: RequestContext) -> Page {
        Page(title: model.product.name, body: context.render(AddToCartPageView.self, model), status: .unprocessableContent)
    }
}
