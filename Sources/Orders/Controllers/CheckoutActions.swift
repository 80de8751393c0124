import Accounts
import Tessera
import TesseraViews

/// Placing the order: it reserves the stock and empties the cart in one transaction, and the
/// shopper lands on the new order, awaiting payment. The form carries its checkout number, so
/// sending it again (a double click, a retry, a second tab) lands on the same order.
struct CheckoutActions {
    let orders: OrderService
    let cart: CartService
    /// Orders per shopper: a 429 page past it, before anything is read.
    let limit: RateLimit

    func register(in routes: inout RouterBuilder) {
        let orders = self.orders
        let cart = self.cart
        routes.group(SignedInShopper(), limit) { routes in placeOrder(in: &routes, orders: orders, cart: cart) }
    }

    private func placeOrder(in routes: inout GuaranteedRoutes<SignedInShopper>, orders: OrderService, cart: CartService) {
        routes.action(OrdersRoutes.placeOrder, page: OrdersRoutes.checkout) { _, context, shopper in
            do {
                // A form without a number (a page from before numbers, a hand-made request) is
                // one the shopper should look at again, not a second order.
                guard case .valid(let form) = try context.decodeForm(CheckoutForm.self) else { throw CheckoutError.outdatedForm }
                switch try await orders.checkout(
                    cartID: CartSession.cartID(in: context, create: false), userID: shopper.id,
                    checkoutNumber: form.checkoutNumber, by: shopper.author,
                    site: context.absoluteURL(for: ""), language: context.language, within: context.databaseBudget)
                {
                case .placed(let order, let unmailable):
                    CartSession.remember(nil, in: context)
                    let flash =
                        if let unmailable {
                            context.localized(Messages.orderPlacedUnmailable, ["id": order.id, "address": unmailable])
                        } else {
                            context.localized(Messages.orderPlacedFlash, ["id": order.id])
                        }
                    return context.redirect(to: OrdersRoutes.order.path(order.id), flash: flash)
                case .alreadyPlaced(let orderID):
                    CartSession.remember(nil, in: context)
                    return context.redirect(
                        to: OrdersRoutes.order.path(orderID), flash: context.localized(Messages.orderPlacedBefore, ["id": orderID]))
                }
            } catch let refusal as CheckoutError {
                return try await context.render(CheckoutPageController(cart: cart, orders: orders, userID: shopper.id, error: refusal))
            }
        }
    }
}
