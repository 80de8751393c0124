import Catalog
import Foundation
import Tessera
import TesseraViews

public enum OrdersRoutes {
    public static let cart = Route<NoParameters>("orders.cart", .get, "/cart")
    public static let addToCart = Route<NoParameters>("orders.cart.add", .post, "/cart/items")
    public static let updateLine = Route<Int>("orders.cart.update", .post, "/cart/items/{productID}")
    public static let removeLine = Route<Int>("orders.cart.remove", .post, "/cart/items/{productID}/remove")
}

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

/// Orders' one entry point. So far: the cart, and the add-to-cart region of the product page.
public struct OrdersModule: FeatureModule {
    let cart: CartService
    let catalog: CatalogService

    public init(cart: CartService, catalog: CatalogService) {
        self.cart = cart
        self.catalog = catalog
    }

    static let cartKey = "cartID"

    /// The visitor's cart id, made on first use; it lives in the session, so it survives sign-in.
    static func cartID(in context: RequestContext, create: Bool) -> String? {
        if let id = context.session[cartKey] { return id }
        guard create else { return nil }
        let id = UUID().uuidString.lowercased()
        context.session[cartKey] = id
        return id
    }

    public func register(in routes: inout RouteTableBuilder) {
        let cart = self.cart
        let catalog = self.catalog
        routes.provide(CatalogRegions.addToCart) { product, _ in AddToCartRegion(product: product) }

        routes.action(OrdersRoutes.cart) { _, context in
            let contents = try await Self.cartID(in: context, create: false).asyncMap { try await cart.cart($0) }
            return Self.cartPage(context, CartPageModel(contents, error: nil))
        }
        routes.action(OrdersRoutes.addToCart) { _, context in
            switch try context.decodeForm(AddToCartForm.self) {
            case .invalid(let state):
                guard let id = Int(state.value("productID")), let product = try? await catalog.product(id: id) else {
                    throw HTTPError(.notFound, message: "There is no such product.")
                }
                return Self.addToCartPage(context, AddToCartModel(product: product, quantity: state.value("quantity"), error: state.error("quantity")))
            case .valid(let form):
                let cartID = Self.cartID(in: context, create: true)!
                switch try await cart.add(form.quantity, of: form.productID, to: cartID) {
                case .failure(.unknownProduct):
                    throw HTTPError(.notFound, message: "There is no such product.")
                case .failure(.quantity(let message)):
                    let product = try await catalog.product(id: form.productID)
                    return Self.addToCartPage(context, AddToCartModel(product: product, quantity: String(form.quantity), error: message))
                case .success(let product):
                    return context.redirect(to: OrdersRoutes.cart.path, flash: "Added \(form.quantity) × \(product.name) to your cart.")
                }
            }
        }
        routes.action(OrdersRoutes.updateLine) { productID, context in
            guard let cartID = Self.cartID(in: context, create: false) else { return .redirect(to: OrdersRoutes.cart.path) }
            switch try context.decodeForm(QuantityForm.self) {
            case .invalid(let state):
                return Self.cartPage(context, CartPageModel(try await cart.cart(cartID), error: state.error("quantity")), status: .unprocessableContent)
            case .valid(let form):
                switch try await cart.setQuantity(form.quantity, of: productID, in: cartID) {
                case .failure(.unknownProduct): throw HTTPError(.notFound, message: "That product is not in the catalog.")
                case .failure(.quantity(let message)):
                    return Self.cartPage(context, CartPageModel(try await cart.cart(cartID), error: message), status: .unprocessableContent)
                case .success: return context.redirect(to: OrdersRoutes.cart.path, flash: "Your cart is updated.")
                }
            }
        }
        routes.action(OrdersRoutes.removeLine) { productID, context in
            if let cartID = Self.cartID(in: context, create: false) {
                _ = try await cart.setQuantity(0, of: productID, in: cartID)
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

/// The add-to-cart form, in the product page's region.
struct AddToCartRegion: RegionController {
    let product: Product

    func render(in context: RequestContext) async throws -> HTMLOutput {
        AddToCartView.render(AddToCartModel(product: product, quantity: "1", error: nil))
    }
}

struct AddToCartModel: Sendable {
    var product: Product
    var quantity: String
    var error: String?
}

struct CartPageModel: Sendable {
    struct Line: Sendable {
        var productID: Int
        var name: String
        var url: String
        var quantity: Int
        var unitPrice: String
        var unitPriceMinor: Int
        var total: String
        var totalMinor: Int
        var updateURL: String
        var removeURL: String
    }

    var lines: [Line]
    var total: String
    var totalMinor: Int
    var itemCount: Int
    var isEmpty: Bool
    var error: String?

    init(_ cart: CartService.Cart?, error: String?) {
        let lines = cart?.lines ?? []
        self.lines = lines.map { line in
            Line(productID: line.product.id, name: line.product.name, url: line.product.url, quantity: line.quantity,
                 unitPrice: line.product.price, unitPriceMinor: line.product.priceMinor,
                 total: Money.format(minor: line.totalMinor), totalMinor: line.totalMinor,
                 updateURL: OrdersRoutes.updateLine.path(line.product.id), removeURL: OrdersRoutes.removeLine.path(line.product.id))
        }
        totalMinor = cart?.totalMinor ?? 0
        total = Money.format(minor: totalMinor)
        itemCount = cart?.itemCount ?? 0
        isEmpty = lines.isEmpty
        self.error = error
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
