import Foundation
import Tessera

/// The visitor's cart as the session knows it: the cart's id, made on first use (so the cart
/// survives sign-in), and its item count, kept beside it so that the navigation bar can show the
/// count on every page without a database read.
public enum CartSession {
    static let idKey = "cartID"
    static let countKey = "cartCount"

    static func cartID(in context: RequestContext, create: Bool) -> String? {
        if let id = context.session[idKey] { return id }
        guard create else { return nil }
        let id = UUID().uuidString.lowercased()
        context.session[idKey] = id
        return id
    }

    /// The visitor's cart, empty when they have none yet; its count is remembered on the way.
    static func currentCart(in context: RequestContext, from cart: CartService) async throws -> CartService.Cart {
        guard let id = cartID(in: context, create: false) else { return CartService.Cart(lines: []) }
        let contents = try await cart.cart(id)
        remember(contents, in: context)
        return contents
    }

    /// How many items the cart holds, for the navigation bar.
    public static func itemCount(in context: RequestContext) -> Int {
        context.session[countKey].flatMap(Int.init) ?? 0
    }

    static func remember(_ cart: CartService.Cart?, in context: RequestContext) {
        let count = cart?.itemCount ?? 0
        context.session[countKey] = count == 0 ? nil : String(count)
    }
}
