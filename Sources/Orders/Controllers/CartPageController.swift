import Tessera
import TesseraViews

/// `/cart`: its lines with the forms to change them, and the server's totals; with the refused
/// line's message beside its field and status 422 when a change was refused.
struct CartPageController: PageController {
    let cart: CartService
    var refusal: CartPageModel.QuantityRefusal?

    func load(_ context: RequestContext) async throws -> CartPageModel {
        CartPageModel(try await CartSession.currentCart(in: context, from: cart), refusal: refusal)
    }

    func render(_ model: CartPageModel, in context: RequestContext) -> Page {
        Page(
            title: context.localized(Messages.cartTitle), body: context.render(CartView.self, model),
            status: refusal == nil ? .ok : .unprocessableContent)
    }
}
