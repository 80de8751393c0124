import Catalog
import Tessera
import TesseraViews

/// "Your purchases of this product", in the product page's `purchases` region: the signed-in
/// shopper's paid, shipped and completed orders of it. Empty when there are none.
struct PurchasesRegion: RegionController {
    let orders: OrderService
    let productID: Int
    let userID: Int

    func render(in context: RequestContext) async throws -> HTMLOutput {
        let purchases = try await orders.purchases(of: productID, by: userID, within: context.databaseBudget)
        guard !purchases.isEmpty else { return try await EmptyRegion().render(in: context) }
        return context.render(PurchasesView.self, PurchasesModel(purchases))
    }
}
