import Accounts
import Orders
import Tessera

/// Who may use the back office: signed-in staff.
enum StaffMember {
    /// The member of staff, as the order history names them. A visitor who is not signed in is
    /// sent to sign in and come back (to the page, for a form's post); anyone else gets the
    /// ordinary 404, so the back office's addresses say nothing to shoppers.
    static func require(_ context: RequestContext, returningTo page: String? = nil) throws -> OrderActor {
        guard let shopper = context.shopper else {
            throw Redirect(to: AccountsRoutes.login(returningTo: page ?? context.request.target))
        }
        guard shopper.isStaff else { throw HTTPError(.notFound, message: "There is nothing at this address.") }
        return .staff(shopper.name)
    }
}
