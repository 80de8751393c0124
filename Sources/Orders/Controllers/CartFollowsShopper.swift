public import Accounts
public import Tessera

/// The cart follows the shopper: on sign-in the anonymous cart joins the account's cart, so the
/// same cart is there on every device the shopper signs in on. Handed to Accounts by the
/// composition root.
public struct CartFollowsShopper: SignInObserver {
    let cart: CartService

    /// The observer, over the cart service that merges the carts.
    public init(cart: CartService) {
        self.cart = cart
    }

    /// Moves the visitor's cart into the account's, capped by stock, and points the session at the account's.
    public func shopperSignedIn(_ shopper: Shopper, in context: RequestContext) async throws {
        try await CartSession.follow(shopper, in: context, cart: cart)
    }
}
