import Accounts
import Logging
import Orders
import Tessera

/// Give and Take staff rights. Either ends every session of the account on every instance
/// (``AccountsService/setStaff(userID:to:)``): taken, no cookie of theirs opens the back office
/// again; given, they have it from their next sign-in. Each is logged with the member of staff's
/// name.
struct AdminStaffActions {
    let accounts: AccountsService

    func register(in routes: inout GuaranteedRoutes<StaffOnly>) {
        let accounts = self.accounts
        routes.action(BackOfficeRoutes.grantStaff) { _, context, staff in
            switch try context.decodeForm(GrantStaffForm.self) {
            case .invalid(let state):
                return try await context.render(AdminStaffPageController(accounts: accounts, returned: state))
            case .valid(let form):
                guard let user = try await accounts.user(email: form.email, within: context.databaseBudget) else {
                    let state = FormState(values: ["email": form.email], errors: ["email": "No account has this e-mail."])
                    return try await context.render(AdminStaffPageController(accounts: accounts, returned: state))
                }
                guard try await accounts.setStaff(userID: user.id, to: true, within: context.databaseBudget) else {
                    return context.redirect(to: BackOfficeRoutes.staff.path, flash: "\(user.name) is staff already.")
                }
                context.logger.notice("staff rights given", metadata: ["user_id": "\(user.id)", "staff": "\(staff.name)"])
                return context.redirect(
                    to: BackOfficeRoutes.staff.path, flash: "\(user.name) is staff from their next sign-in; their sessions have ended.")
            }
        }
        routes.action(BackOfficeRoutes.revokeStaff) { id, context, staff in
            guard id != context.shopper?.id else {
                return context.redirect(to: BackOfficeRoutes.staff.path, flash: "Another member of staff must take your rights.")
            }
            guard try await accounts.setStaff(userID: id, to: false, within: context.databaseBudget) else {
                return context.redirect(to: BackOfficeRoutes.staff.path, flash: "That account is not staff: nothing changed.")
            }
            context.logger.notice("staff rights taken", metadata: ["user_id": "\(id)", "staff": "\(staff.name)"])
            return context.redirect(to: BackOfficeRoutes.staff.path, flash: "Their staff rights are taken, and every session of theirs has ended.")
        }
    }
}
