import Tessera

/// `/cart`: its lines with the forms to change them, and the server's totals; with a message and
/// status 422 when a change was refused.
struct CartPageController: PageController {
    let cart: CartService
    var error: String?

    func load(_ context: RequestContext) async throws -> CartPageModel {
        CartPageModel(try await CartSession.currentCart(in: context, from: cart), error: error)
    }

    func render(_ model: CartPageModel, in context: RequestContext) -> Page {
        Page(title: "Your cart", body: context.render(CartView.self, model), status: error == nil ? .ok : .unprocessableContent)
    }
}
