import Tessera
import TesseraViews

/// `/orders`: the shopper's orders, newest first, filtered by `?status=`. Each row's view is
/// chosen per order: an order awaiting payment gets a row with the amount due and a Pay button,
/// every other order the common row.
struct OrderListPageController: PageController {
    let orders: OrderService

    struct Listing: Sendable {
        var orders: [Order]
        var status: OrderStatus?
    }

    func load(_ context: RequestContext) async throws -> Listing {
        let userID = try SignedInShopper.require(context)
        var status: OrderStatus?
        if let raw = context.request.query["status"], !raw.isEmpty {
            guard let parsed = OrderStatus(rawValue: raw) else {
                throw HTTPError(.badRequest, message: "Filter by one of: " + OrderStatus.allCases.map(\.rawValue).joined(separator: ", ") + ".")
            }
            status = parsed
        }
        return Listing(orders: try await orders.orders(of: userID, status: status), status: status)
    }

    func render(_ listing: Listing, in context: RequestContext) -> Page {
        let filters = [OrderListModel.Filter(label: "All", url: OrdersRoutes.orders.path, status: "all", current: listing.status == nil ? "page" : "false")]
            + OrderStatus.allCases.map { status in
                OrderListModel.Filter(label: status.label, url: OrdersRoutes.orders.path + "?status=" + status.rawValue,
                                      status: status.rawValue, current: listing.status == status ? "page" : "false")
            }
        let model = OrderListModel(
            filters: filters,
            rows: listing.orders.map { Self.row($0, in: context) },
            isEmpty: listing.orders.isEmpty,
            emptyMessage: listing.status.map { "You have no orders that are \($0.label.lowercased())." } ?? "You have no orders yet."
        )
        return Page(title: "Your orders", body: context.render(OrderListView.self, model))
    }

    /// The row view for one order.
    static func row(_ order: Order, in context: RequestContext) -> HTMLOutput {
        switch order.status {
        case .awaitingPayment: context.render(AwaitingPaymentRowView.self, PayableOrder(order))
        case .paid, .shipped, .completed, .cancelled: context.render(OrderRowView.self, OrderSummary(order))
        }
    }
}
