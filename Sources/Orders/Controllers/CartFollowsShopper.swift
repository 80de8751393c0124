import Accounts
import Tessera

/// The cart follows the shopper: on sign-in the anonymous cart joins the account's cart, so the
/// same cart is there on every device the shopper signs in on. Handed to Accounts by the
/// composition root.
public struct CartFollowsShopper: SignInObserver {
    let cart: CartService

    public init(cart: CartService) {
        self.cart = cart
    }

    public func shopperSignedIn(_ shopper: Shopper, in context: RequestContext) async throws {
        try await CartSession.follow(shopper, in: context, cart: cart)
    }
}
