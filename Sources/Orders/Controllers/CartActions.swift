import Catalog
import Tessera
import TesseraViews

/// The cart's forms: add, change a quantity, remove. Every change ends in a redirect to the
/// cart (Post/Redirect/Get); a refused change shows its page again with the message, as a 422.
struct CartActions {
    let cart: CartService
    let catalog: CatalogService

    func register(in routes: inout RouterBuilder) {
        let cart = self.cart
        let catalog = self.catalog
        routes.action(OrdersRoutes.addToCart) { _, context in
            switch try context.decodeForm(AddToCartForm.self) {
            case .invalid(let state):
                guard let productID = Int(state.value("productID")) else { throw CartError.unknownProduct }
                return try await context.render(
                    AddToCartPageController(
                        catalog: catalog, productID: productID, quantity: state.value("quantity"), error: state.error("quantity")))
            case .valid(let form):
                let cartID = CartSession.cartID(in: context, create: true)!
                do {
                    let product = try await cart.add(form.quantity, of: form.productID, to: cartID, within: context.databaseBudget)
                    CartSession.remember(try await cart.cart(cartID, within: context.databaseBudget), in: context)
                    return context.redirect(
                        to: OrdersRoutes.cart.path, flash: context.localized(Messages.cartAdded, count: form.quantity, ["name": product.name]))
                } catch let refusal as CartError where refusal != .unknownProduct {
                    return try await context.render(
                        AddToCartPageController(
                            catalog: catalog, productID: form.productID, quantity: String(form.quantity),
                            error: refusal.publicMessage(in: context.language)))
                }
            }
        }
        routes.action(OrdersRoutes.updateLine) { productID, context in
            guard let cartID = CartSession.cartID(in: context, create: false) else { return .redirect(to: OrdersRoutes.cart.path) }
            switch try context.decodeForm(QuantityForm.self) {
            case .invalid(let state):
                let refusal = CartPageModel.QuantityRefusal(
                    productID: productID, quantity: state.value("quantity"), message: state.error("quantity") ?? "Quantity must be a whole number.")
                return try await context.render(CartPageController(cart: cart, refusal: refusal))
            case .valid(let form):
                do {
                    try await cart.setQuantity(form.quantity, of: productID, in: cartID, within: context.databaseBudget)
                } catch let refusal as CartError where refusal != .unknownProduct {
                    return try await context.render(
                        CartPageController(
                            cart: cart,
                            refusal: CartPageModel.QuantityRefusal(
                                productID: productID, quantity: String(form.quantity), message: refusal.publicMessage(in: context.language))))
                }
                CartSession.remember(try await cart.cart(cartID, within: context.databaseBudget), in: context)
                return context.redirect(to: OrdersRoutes.cart.path, flash: context.localized(Messages.cartUpdated))
            }
        }
        routes.action(OrdersRoutes.removeLine) { productID, context in
            if let cartID = CartSession.cartID(in: context, create: false) {
                try await cart.setQuantity(0, of: productID, in: cartID, within: context.databaseBudget)
                CartSession.remember(try await cart.cart(cartID, within: context.databaseBudget), in: context)
            }
            return context.redirect(to: OrdersRoutes.cart.path, flash: context.localized(Messages.cartRemoved))
        }
    }
}
