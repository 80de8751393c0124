import Accounts
import Tessera

/// The rule of the orders' pages and actions: a signed-in shopper, handed to each handler of the
/// group non-optional; a handler outside the group has no shopper to take, so an orders route
/// registered elsewhere does not compile. Anyone else is sent to sign in and come back to the
/// page they were on (for a form, the page it is on: coming back to a post address would be a 405).
struct SignedInShopper: RouteGuarantee {
    func check(_ context: RequestContext, returningTo page: String) throws -> Shopper {
        guard let shopper = context.shopper else { throw Redirect(to: AccountsRoutes.login(returningTo: page)) }
        return shopper
    }
}

extension Shopper {
    /// The shopper as the order history names them.
    var author: OrderChangeAuthor { .shopper(name) }
}
