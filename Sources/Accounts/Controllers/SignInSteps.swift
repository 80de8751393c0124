import Logging
import Tessera

/// What every way of signing in does once the account is known: a new session for the user, then
/// the other modules' sign-in observers (a cart that follows the shopper). An observer that fails
/// is logged, and the sign-in stands.
struct SignInSteps: Sendable {
    let observers: [any SignInObserver]

    func signIn(_ user: User, in context: RequestContext) async {
        ShopperSession.signIn(user, in: context)
        let shopper = Shopper(id: user.id, name: user.name, isStaff: user.isStaff)
        for observer in observers {
            do {
                try await observer.shopperSignedIn(shopper, in: context)
            } catch {
                context.logger.error(
                    "a sign-in observer failed", metadata: ["user_id": "\(user.id)", "observer": "\(type(of: observer))", "error": "\(error)"])
            }
        }
    }
}
