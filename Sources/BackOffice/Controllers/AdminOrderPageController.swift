import Catalog
import Orders
import Tessera
import TesseraViews

/// `/admin/orders/{id}`: one order for staff: its lines, Ship while it is paid, Cancel while it
/// may be cancelled, and its history (who did what, when).
struct AdminOrderPageController: PageController {
    let orders: OrderService
    let id: Int
    /// A form that came back with errors, shown again (with status 422).
    var returned: Returned?

    enum Returned: Sendable {
        case ship(FormState)
        case cancel(FormState)
    }

    struct Loaded: Sendable {
        var order: Order
        var history: [OrderHistoryEntry]
    }

    func load(_ context: RequestContext) async throws -> Loaded {
        guard let order = try await orders.anyOrder(id, within: context.databaseBudget) else {
            throw HTTPError(.notFound, message: "There is no order \(id).")
        }
        return Loaded(order: order, history: try await orders.history(of: order, within: context.databaseBudget))
    }

    func render(_ loaded: Loaded, in context: RequestContext) -> Page {
        let order = loaded.order
        var ship: AdminOrderModel.TextField?
        if order.status == .paid {
            let state: FormState? = if case .ship(let state) = returned { state } else { nil }
            ship = .init(
                url: BackOfficeRoutes.ship.path(order.id), value: state?.value("trackingNumber") ?? "", error: state?.error("trackingNumber"))
        }
        var cancel: AdminOrderModel.TextField?
        if (try? order.status.applying(.cancel)) != nil {
            let state: FormState? = if case .cancel(let state) = returned { state } else { nil }
            cancel = .init(url: BackOfficeRoutes.cancel.path(order.id), value: state?.value("reason") ?? "", error: state?.error("reason"))
        }
        let model = AdminOrderModel(
            order: AdminOrderRow(order),
            lines: order.lines.map { .init(name: $0.productName, quantity: $0.quantity, total: Price(minor: $0.totalMinor)) },
            trackingNumber: order.trackingNumber, cancellationReason: order.cancellationReason,
            ship: ship, cancel: cancel,
            history: loaded.history.map {
                .init(
                    at: AdminDates.text($0.at), atISO: AdminDates.iso($0.at), actor: $0.actor.name, role: $0.actor.isStaff ? "staff" : "shopper",
                    action: $0.action, detail: $0.detail ?? "")
            }
        )
        return Page(
            title: "Order #\(order.id) · Back office", body: context.render(AdminOrderView.self, model),
            status: returned == nil ? .ok : .unprocessableContent)
    }
}
