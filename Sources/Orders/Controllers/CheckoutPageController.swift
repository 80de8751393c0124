import Tessera

/// `/checkout`: the cart's lines, priced by the server, and the button that places the order;
/// with the reason and status 422 when placing it failed.
struct CheckoutPageController: PageController {
    let cart: CartService
    var error: CheckoutError?

    func load(_ context: RequestContext) async throws -> CheckoutModel {
        _ = try SignedInShopper.require(context, returningTo: OrdersRoutes.checkout.path)
        let contents = try await CartSession.currentCart(in: context, from: cart)
        return CheckoutModel(items: LineItems(contents), isEmpty: contents.lines.isEmpty, error: error?.publicMessage)
    }

    func render(_ model: CheckoutModel, in context: RequestContext) -> Page {
        Page(title: "Checkout", body: context.render(CheckoutView.self, model), status: error == nil ? .ok : .unprocessableContent)
    }
}
