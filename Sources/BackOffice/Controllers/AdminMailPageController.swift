import Orders
import Tessera
import TesseraViews

/// `/admin/mail`: the order confirmations the outbox gave up on, oldest first, each with its
/// order, where it was to go, why it failed, and forms to send it again (to a mended address)
/// or discard it.
struct AdminMailPageController: PageController {
    let orders: OrderService
    /// A resend form that came back with errors, for dead letter `id`, shown again (422).
    var returned: (id: Int, state: FormState)?

    func load(_ context: RequestContext) async throws -> [UnsentConfirmation] {
        try await orders.unsentConfirmations(within: context.databaseBudget)
    }

    func render(_ unsent: [UnsentConfirmation], in context: RequestContext) -> Page {
        let rows = unsent.map { confirmation in
            let state = returned.flatMap { $0.id == Int(confirmation.id) ? $0.state : nil }
            return AdminDeadLetterRow(confirmation, address: state?.value("email"), error: state?.error("email"))
        }
        return Page(
            title: "Unsent mail · Back office", body: context.render(AdminMailView.self, AdminMailModel(rows: rows, isEmpty: rows.isEmpty)),
            status: returned == nil ? .ok : .unprocessableContent)
    }
}
