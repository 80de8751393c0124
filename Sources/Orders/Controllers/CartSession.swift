import Accounts
import Foundation
public import Tessera

/// The visitor's cart as the session knows it: a signed-in shopper's cart belongs to the
/// account (the same on every device), anyone else's has an id made on first use and kept in
/// the session; the item count is kept beside it so that the navigation bar can show it on
/// every page without a database read.
public enum CartSession {
    static let idKey = "cartID"
    static let countKey = "cartCount"

    /// The cart of the account `userID`.
    static func accountCartID(_ userID: Int) -> String {
        "account:\(userID)"
    }

    static func cartID(in context: RequestContext, create: Bool) -> String? {
        if let shopper = context.shopper { return accountCartID(shopper.id) }
        if let id = context.session[idKey] { return id }
        guard create else { return nil }
        let id = UUID().uuidString.lowercased()
        context.session[idKey] = id
        return id
    }

    /// The visitor's cart, empty when they have none yet; its count is remembered on the way.
    static func currentCart(in context: RequestContext, from cart: CartService) async throws -> CartService.Cart {
        guard let id = cartID(in: context, create: false) else { return CartService.Cart(lines: []) }
        let contents = try await cart.cart(id, within: context.databaseBudget)
        remember(contents, in: context)
        return contents
    }

    /// How many items the cart holds, for the navigation bar.
    public static func itemCount(in context: RequestContext) -> Int {
        context.session[countKey].flatMap(Int.init) ?? 0
    }

    /// As `shopper` signs in: the anonymous cart joins the account's, the session forgets its
    /// own cart, and the count is the account's.
    static func follow(_ shopper: Shopper, in context: RequestContext, cart: CartService) async throws {
        let merged = try await cart.merge(context.session[idKey], into: accountCartID(shopper.id), within: context.databaseBudget)
        context.session[idKey] = nil
        remember(merged, in: context)
    }

    static func remember(_ cart: CartService.Cart?, in context: RequestContext) {
        let count = cart?.itemCount ?? 0
        context.session[countKey] = count == 0 ? nil : String(count)
    }
}
