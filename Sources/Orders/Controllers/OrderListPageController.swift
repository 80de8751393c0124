import Tessera
import TesseraViews

/// `/orders`: the shopper's orders, newest first, filtered by `?status=`. The rows are a live
/// region (``OrderRowsRegion``): an order that moves, or a new one, shows without a reload.
struct OrderListPageController: PageController {
    let orders: OrderService
    let userID: Int

    struct Listing: Sendable {
        var userID: Int
        var status: OrderStatus?
        var query: String
    }

    func load(_ context: RequestContext) async throws -> Listing {
        let status = try OrderStatus.filter(in: context.request)
        return Listing(userID: userID, status: status, query: status.map { "?status=" + $0.rawValue } ?? "")
    }

    func render(_ listing: Listing, in context: RequestContext) -> Page {
        let filters = OrderStatusFilter.links(for: OrdersRoutes.orders.path, current: listing.status)
        return Page(title: context.localized(Messages.orderYours), body: context.render(OrderListView.self, OrderListModel(filters: filters)))
    }

    func regions(for listing: Listing, in context: RequestContext) -> OrderListView.Regions<Region> {
        OrderListView.Regions(
            rows: Region(
                source: OrdersRoutes.orderRows.path + listing.query,
                controller: OrderRowsRegion(orders: orders, userID: listing.userID, status: listing.status),
                isRequired: true))
    }
}

/// The rows of the order list, for the page and alone at `/orders/rows?status=`: live on the
/// shopper's orders, so a status that changes or an order placed in another tab shows at once.
struct OrderRowsRegion: RegionController {
    let orders: OrderService
    let userID: Int
    let status: OrderStatus?

    var topics: [Topic] { [OrdersTopics.ordersOf(userID)] }

    func render(in context: RequestContext) async throws -> HTMLOutput {
        let listed = try await orders.orders(of: userID, status: status, within: context.databaseBudget)
        return context.render(
            OrderRowsView.self,
            OrderRowsModel(
                rows: listed.map { Self.row($0, in: context) },
                isEmpty: listed.isEmpty,
                emptyMessage: status.map { context.localized(Messages.listNoneWithStatus, ["status": $0.localizedLabel]) }
                    ?? context.localized(Messages.listNone)
            ))
    }

    /// The row view for one order.
    static func row(_ order: Order, in context: RequestContext) -> HTMLOutput {
        switch order.status {
        case .awaitingPayment: context.render(AwaitingPaymentRowView.self, PayableOrder(order))
        case .paid, .shipped, .completed, .cancelled: context.render(OrderRowView.self, OrderSummary(order))
        }
    }
}
