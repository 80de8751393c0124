import Orders
import Tessera
import TesseraViews

/// `/admin/orders`: every shopper's orders, newest first, filtered by `?status=`.
struct AdminOrderListPageController: PageController {
    let orders: OrderService

    struct Listing: Sendable {
        var orders: [Order]
        var status: OrderStatus?
    }

    func load(_ context: RequestContext) async throws -> Listing {
        let status = try OrderStatus.filter(in: context.request)
        return Listing(orders: try await orders.allOrders(status: status, within: context.databaseBudget), status: status)
    }

    func render(_ listing: Listing, in context: RequestContext) -> Page {
        let filters = OrderStatusFilter.links(for: BackOfficeRoutes.orders.path, current: listing.status)
        let model = AdminOrderListModel(filters: filters, rows: listing.orders.map(AdminOrderRow.init), isEmpty: listing.orders.isEmpty)
        return Page(title: "Orders · Back office", body: context.render(AdminOrdersView.self, model))
    }
}
