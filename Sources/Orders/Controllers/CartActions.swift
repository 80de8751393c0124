import Catalog
import Tessera
import TesseraViews

struct AddToCartForm: FormModel {
    var productID: Int
    var quantity: Int

    init(reading form: inout FormReader) {
        productID = form.integer("productID", in: 1...Int(Int32.max), label: "Product")
        quantity = form.integer("quantity", in: 1...10_000, label: "Quantity")
    }
}

struct QuantityForm: FormModel {
    var quantity: Int

    init(reading form: inout FormReader) {
        quantity = form.integer("quantity", in: 0...10_000, label: "Quantity")
    }
}

/// `/cart` and its forms: add, change a quantity, remove. Every change ends in a redirect to the
/// cart (Post/Redirect/Get); a bad quantity shows the form again with the message, as a 422.
struct CartActions {
    let cart: CartService
    let catalog: CatalogService

    func register(in routes: inout RouteTableBuilder) {
        let cart = self.cart
        let catalog = self.catalog
        routes.action(OrdersRoutes.cart) { _, context in
            let contents = try await CartSession.cartID(in: context, create: false).asyncMap { try await cart.cart($0) }
            CartSession.remember(contents, in: context)
            return Self.cartPage(context, CartPageModel(contents, error: nil))
        }
        routes.action(OrdersRoutes.addToCart) { _, context in
            switch try context.decodeForm(AddToCartForm.self) {
            case .invalid(let state):
                guard let id = Int(state.value("productID")), let product = try await catalog.existingProduct(id: id) else {
                    throw HTTPError(.notFound, message: "There is no such product.")
                }
                return Self.addToCartPage(context, AddToCartModel(product: product, quantity: state.value("quantity"), error: state.error("quantity")))
            case .valid(let form):
                let cartID = CartSession.cartID(in: context, create: true)!
                switch try await cart.add(form.quantity, of: form.productID, to: cartID) {
                case .failure(.unknownProduct):
                    throw HTTPError(.notFound, message: "There is no such product.")
                case .failure(.quantity(let message)):
                    let product = try await catalog.product(id: form.productID)
                    return Self.addToCartPage(context, AddToCartModel(product: product, quantity: String(form.quantity), error: message))
                case .success(let product):
                    CartSession.remember(try await cart.cart(cartID), in: context)
                    return context.redirect(to: OrdersRoutes.cart.path, flash: "Added \(form.quantity) × \(product.name) to your cart.")
                }
            }
        }
        routes.action(OrdersRoutes.updateLine) { productID, context in
            guard let cartID = CartSession.cartID(in: context, create: false) else { return .redirect(to: OrdersRoutes.cart.path) }
            switch try context.decodeForm(QuantityForm.self) {
            case .invalid(let state):
                return Self.cartPage(context, CartPageModel(try await cart.cart(cartID), error: state.error("quantity")), status: .unprocessableContent)
            case .valid(let form):
                switch try await cart.setQuantity(form.quantity, of: productID, in: cartID) {
                case .failure(.unknownProduct): throw HTTPError(.notFound, message: "That product is not in the catalog.")
                case .failure(.quantity(let message)):
                    return Self.cartPage(context, CartPageModel(try await cart.cart(cartID), error: message), status: .unprocessableContent)
                case .success:
                    CartSession.remember(try await cart.cart(cartID), in: context)
                    return context.redirect(to: OrdersRoutes.cart.path, flash: "Your cart is updated.")
                }
            }
        }
        routes.action(OrdersRoutes.removeLine) { productID, context in
            if let cartID = CartSession.cartID(in: context, create: false) {
                _ = try await cart.setQuantity(0, of: productID, in: cartID)
                CartSession.remember(try await cart.cart(cartID), in: context)
            }
            return context.redirect(to: OrdersRoutes.cart.path, flash: "Removed from your cart.")
        }
    }

    static func cartPage(_ context: RequestContext, _ model: CartPageModel, status: HTTPResponse.Status = .ok) -> Response {
        context.render(Page(title: "Your cart", body: context.render(CartView.self, model), status: status))
    }

    static func addToCartPage(_ context: RequestContext, _ model: AddToCartModel) -> Response {
        context.render(Page(title: model.product.name, body: context.render(AddToCartView.self, model), status: .unprocessableContent))
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
