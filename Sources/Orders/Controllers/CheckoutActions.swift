import Tessera

/// Placing the order: it reserves the stock and empties the cart in one transaction, and the
/// shopper lands on the new order, awaiting payment.
struct CheckoutActions {
    let orders: OrderService
    let cart: CartService

    func register(in routes: inout RouterBuilder) {
        let orders = self.orders
        let cart = self.cart
        routes.action(OrdersRoutes.placeOrder) { _, context in
            let shopper = try SignedInShopper.require(context, returningTo: OrdersRoutes.checkout.path)
            do {
                let order = try await orders.checkout(cartID: CartSession.cartID(in: context, create: false), userID: shopper, by: SignedInShopper.actor(context))
                CartSession.remember(nil, in: context)
                return context.redirect(to: OrdersRoutes.order.path(order.id), flash: "Order #\(order.id) is placed. It awaits your payment.")
            } catch let refusal as CheckoutError {
                return try await context.render(CheckoutPageController(cart: cart, error: refusal))
            }
        }
    }
}
