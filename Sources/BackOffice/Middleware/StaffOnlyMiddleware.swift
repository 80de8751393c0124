import Accounts
import Tessera

/// The back office's one rule, stated once for all its routes: staff only.
///
/// A visitor who is not signed in is sent to sign in and come back: to the page they asked for,
/// or, for a form's post such as `/admin/orders/7/ship`, to the page the form is on, its parent
/// address `/admin/orders/7` (signing in cannot replay a post). A signed-in shopper gets the
/// ordinary 404, so the back office's addresses say nothing to shoppers. Staff go on, with
/// ``StaffMember`` attached for the handlers.
struct StaffOnlyMiddleware: Middleware {
    func before(_ context: inout RequestContext) throws -> StepOutcome {
        guard let shopper = context.shopper else {
            return .answer(.redirect(to: AccountsRoutes.login(returningTo: Self.returnPage(context.request))))
        }
        guard shopper.isStaff else { throw HTTPError.nothingHere }
        context[StaffMember.self] = .staff(shopper.name)
        return .next
    }

    /// Where to come back to after signing in.
    static func returnPage(_ request: Request) -> String {
        guard request.method != .get, request.method != .head else { return request.target }
        let parent = request.path.split(separator: "/").dropLast().joined(separator: "/")
        return "/" + parent
    }
}
