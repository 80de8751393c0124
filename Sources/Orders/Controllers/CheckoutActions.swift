import Tessera

/// `/checkout`: review the cart, then place the order. Placing it reserves the stock and empties
/// the cart in one transaction; the shopper lands on the new order, awaiting payment.
struct CheckoutActions {
    let orders: OrderService
    let cart: CartService

    func register(in routes: inout RouteTableBuilder) {
        let orders = self.orders
        let cart = self.cart
        routes.action(OrdersRoutes.checkout) { _, context in
            _ = try SignedInShopper.require(context)
            let contents = try await CartSession.cartID(in: context, create: false).asyncMap { try await cart.cart($0) }
            return Self.page(context, contents ?? CartService.Cart(lines: []), error: nil)
        }
        routes.action(OrdersRoutes.placeOrder) { _, context in
            let userID = try SignedInShopper.require(context, returningTo: OrdersRoutes.checkout.path)
            let cartID = CartSession.cartID(in: context, create: false)
            switch try await orders.checkout(cartID: cartID, userID: userID) {
            case .success(let order):
                CartSession.remember(nil, in: context)
                return context.redirect(to: OrdersRoutes.order.path(order.id), flash: "Order #\(order.id) is placed. It awaits your payment.")
            case .failure(let problem):
                let contents = try await cartID.asyncMap { try await cart.cart($0) } ?? CartService.Cart(lines: [])
                let message = switch problem {
                case .emptyCart: "Your cart is empty."
                case .stock(let message): message + " Please change your cart."
                }
                return Self.page(context, contents, error: message, status: .unprocessableContent)
            }
        }
    }

    static func page(_ context: RequestContext, _ cart: CartService.Cart, error: String?, status: HTTPResponse.Status = .ok) -> Response {
        let model = CheckoutModel(items: LineItems(cart), isEmpty: cart.lines.isEmpty, error: error)
        return context.render(Page(title: "Checkout", body: context.render(CheckoutView.self, model), status: status))
    }
}
