import Tessera
import TesseraViews

/// `/checkout`: the cart's lines, priced by the server, and the button that places the order,
/// whose form carries the number its order will have; with the reason and its status (422,
/// or 409 for an out-of-date form) when placing it failed.
struct CheckoutPageController: PageController {
    let cart: CartService
    let orders: OrderService
    let userID: Int
    var error: CheckoutError?

    func load(_ context: RequestContext) async throws -> CheckoutModel {
        let contents = try await CartSession.currentCart(in: context, from: cart)
        return CheckoutModel(
            items: LineItems(contents), isEmpty: contents.lines.isEmpty, error: error?.publicMessage(in: context.language),
            checkoutNumber: try await orders.nextCheckoutNumber(for: userID, within: context.databaseBudget))
    }

    func render(_ model: CheckoutModel, in context: RequestContext) -> Page {
        Page(title: context.localized(Messages.checkoutTitle), body: context.render(CheckoutView.self, model), status: error?.status ?? .ok)
    }
}
