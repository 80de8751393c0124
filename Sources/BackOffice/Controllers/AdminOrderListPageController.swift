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
        var status: OrderStatus?
        if let raw = context.request.query["status"], !raw.isEmpty {
            guard let parsed = OrderStatus(rawValue: raw) else {
                throw HTTPError(.badRequest, message: "Filter by one of: " + OrderStatus.allCases.map(\.rawValue).joined(separator: ", ") + ".")
            }
            status = parsed
        }
        return Listing(orders: try await orders.allOrders(status: status), status: status)
    }

    func render(_ listing: Listing, in context: RequestContext) -> Page {
        let all = BackOfficeRoutes.orders.path
        let filters = [AdminOrderListModel.Filter(label: "All", url: all, status: "all", current: listing.status == nil ? "page" : "false")]
            + OrderStatus.allCases.map { status in
                AdminOrderListModel.Filter(label: status.label, url: all + "?status=" + status.rawValue, status: status.rawValue,
                                           current: listing.status == status ? "page" : "false")
            }
        let model = AdminOrderListModel(filters: filters, rows: listing.orders.map(AdminOrderRow.init), isEmpty: listing.orders.isEmpty)
        return Page(title: "Orders · Back office", body: context.render(AdminOrdersView.self, model))
    }
}
