import Accounts
import Logging
import Orders
import Tessera

/// Send again, Send all again and Discard, for order confirmations the outbox gave up on.
/// Sending again to another address gives the buyer's account that address too, held to
/// registration's rule. Each is logged with the member of staff's name.
struct AdminMailActions {
    let orders: OrderService

    func register(in routes: inout GuaranteedRoutes<StaffOnly>) {
        let orders = self.orders
        routes.action(BackOfficeRoutes.resendMail) { id, context, staff in
            switch try context.decodeForm(ResendMailForm.self) {
            case .invalid(let state):
                return try await context.render(AdminMailPageController(orders: orders, returned: (id, state)))
            case .valid(let form):
                do {
                    switch try await orders.resendConfirmation(
                        Int64(id), to: form.email, site: context.absoluteURL(for: ""), within: context.databaseBudget)
                    {
                    case .queued:
                        context.logger.notice(
                            "unsent mail sent again", metadata: ["mail_id": "\(id)", "address": "\(form.email)", "staff": "\(staff.name)"])
                        return context.redirect(to: BackOfficeRoutes.mail.path, flash: "The mail is on its way again, to \(form.email).")
                    case .gone:
                        return context.redirect(to: BackOfficeRoutes.mail.path, flash: "That mail was already sent again or discarded.")
                    }
                } catch RegistrationError.emailTaken {
                    let state = FormState(values: ["email": form.email], errors: ["email": "Another account has this address."])
                    return try await context.render(AdminMailPageController(orders: orders, returned: (id, state)))
                }
            }
        }
        routes.action(BackOfficeRoutes.resendAllMail) { _, context, staff in
            let (queued, waiting) = try await orders.resendAllConfirmations(site: context.absoluteURL(for: ""), within: context.databaseBudget)
            context.logger.notice("unsent mail sent again", metadata: ["count": "\(queued)", "waiting": "\(waiting)", "staff": "\(staff.name)"])
            let flash =
                waiting == 0
                ? "\(queued) mails are on their way again."
                : "\(queued) mails are on their way again; \(waiting) wait for an address that can be mailed."
            return context.redirect(to: BackOfficeRoutes.mail.path, flash: flash)
        }
        routes.action(BackOfficeRoutes.discardMail) { id, context, staff in
            let discarded = try await orders.discardConfirmation(Int64(id))
            if discarded { context.logger.notice("unsent mail discarded", metadata: ["mail_id": "\(id)", "staff": "\(staff.name)"]) }
            return context.redirect(
                to: BackOfficeRoutes.mail.path, flash: discarded ? "The mail is discarded." : "That mail was already sent again or discarded.")
        }
    }
}
