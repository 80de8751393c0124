import Accounts
import Tessera
import TesseraViews

/// `/admin/staff`: every member of staff, each with a form to take their rights (not for the one
/// looking), and a form to give an account staff rights by its e-mail.
struct AdminStaffPageController: PageController {
    let accounts: AccountsService
    /// The grant form, when it came back with errors (422).
    var returned: FormState?

    func load(_ context: RequestContext) async throws -> [User] {
        try await accounts.staffMembers(within: context.databaseBudget)
    }

    func render(_ staff: [User], in context: RequestContext) -> Page {
        let looking = context.shopper?.id
        let rows = staff.map { member in
            AdminStaffRow(
                id: member.id, name: member.name, email: member.email, isRevocable: member.id != looking,
                revokeURL: BackOfficeRoutes.revokeStaff.path(member.id))
        }
        let model = AdminStaffModel(rows: rows, email: returned?.value("email") ?? "", error: returned?.error("email"))
        return Page(
            title: "Staff · Back office", body: context.render(AdminStaffView.self, model), status: returned == nil ? .ok : .unprocessableContent)
    }
}
