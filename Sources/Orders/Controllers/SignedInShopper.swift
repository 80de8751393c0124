import Accounts
import Tessera

/// Pages and actions that need a signed-in shopper.
enum SignedInShopper {
    /// The signed-in shopper's id; otherwise a redirect to sign in and come back to `returnPath`
    /// (by default this page). Actions pass the page the form was on: coming back to a POST
    /// address would be a 405.
    static func require(_ context: RequestContext, returningTo returnPath: String? = nil) throws(Redirect) -> Int {
        guard let shopper = context.shopper else {
            throw Redirect(to: AccountsRoutes.login(returningTo: returnPath ?? context.request.target))
        }
        return shopper.id
    }

    /// The signed-in shopper as the order history names them.
    static func author(_ context: RequestContext) -> OrderChangeAuthor {
        .shopper(context.shopper?.name ?? "A shopper")
    }
}
