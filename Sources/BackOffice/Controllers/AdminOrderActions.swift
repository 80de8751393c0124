import Orders
import Tessera

/// Ship and Cancel, by staff, through the orders' own state machine: a transition it refuses
/// (shipping a cancelled order, cancelling a shipped one) is its 409 page.
struct AdminOrderActions {
    let orders: OrderService

    func register(in routes: inout GuaranteedRoutes<StaffOnly>) {
        let orders = self.orders
        routes.action(BackOfficeRoutes.ship) { id, context, staff in
            let order = try await Self.order(id, orders, within: context.databaseBudget)
            _ = try order.status.applying(.ship)  // the state decides first: a stale page's form is a 409
            switch try context.decodeForm(ShipForm.self) {
            case .invalid(let state):
                return try await context.render(AdminOrderPageController(orders: orders, id: id, returned: .ship(state)))
            case .valid(let form):
                let shipped = try await orders.ship(order, trackingNumber: form.trackingNumber, by: staff, within: context.databaseBudget)
                return context.redirect(
                    to: BackOfficeRoutes.order.path(id), flash: "Order #\(id) is shipped with \(shipped.trackingNumber ?? "its tracking number").")
            }
        }
        routes.action(BackOfficeRoutes.cancel) { id, context, staff in
            let order = try await Self.order(id, orders, within: context.databaseBudget)
            _ = try order.status.applying(.cancel)
            switch try context.decodeForm(StaffCancelForm.self) {
            case .invalid(let state):
                return try await context.render(AdminOrderPageController(orders: orders, id: id, returned: .cancel(state)))
            case .valid(let form):
                _ = try await orders.cancel(order, reason: form.reason, by: staff, within: context.databaseBudget)
                return context.redirect(to: BackOfficeRoutes.order.path(id), flash: "Order #\(id) is cancelled.")
            }
        }
    }

    private static func order(_ id: Int, _ orders: OrderService, within budget: DatabaseBudget) async throws -> Order {
        guard let order = try await orders.anyOrder(id, within: budget) else { throw HTTPError(.notFound, message: "There is no order \(id).") }
        return order
    }
}
