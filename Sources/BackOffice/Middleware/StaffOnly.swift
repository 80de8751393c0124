import Accounts
import Orders
import Tessera

/// The back office's one rule, stated once for all its routes: staff only. Every handler in the
/// group gets the member of staff, as the order history names them; a handler outside it has no
/// such parameter, so a back-office route registered elsewhere does not compile.
///
/// A visitor who is not signed in is sent to sign in and come back: to the page they asked for,
/// or, for a form's post such as `/admin/orders/7/ship`, to the page the form is on, its parent
/// address `/admin/orders/7` (signing in cannot replay a post). A signed-in shopper gets the
/// ordinary 404, so the back office's addresses say nothing to shoppers.
struct StaffOnly: RouteGuarantee {
    func check(_ context: RequestContext, returningTo page: String) throws -> OrderChangeAuthor {
        guard let shopper = context.shopper else { throw Redirect(to: AccountsRoutes.login(returningTo: page)) }
        guard shopper.isStaff else { throw HTTPError.nothingHere }
        return .staff(shopper.name)
    }
}
