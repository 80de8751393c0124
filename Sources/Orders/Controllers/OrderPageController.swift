import Tessera
import TesseraViews

/// `/orders/{id}`: a container. The page shows the order and its items; its `status` region is
/// served by a child controller picked per status (``OrderStatusChildren``). An order that is not
/// the shopper's is a 404, exactly like one that does not exist.
struct OrderPageController: PageController {
    let orders: OrderService
    let id: Int
    /// The signed-in shopper's id: another shopper's order is a 404.
    let userID: Int
    /// A form that came back with errors, shown again in the status region (with status 422).
    var returnedForm: ReturnedForm?

    func load(_ context: RequestContext) async throws -> Order {
        try await OrderLookup(orders: orders).order(id, of: userID, within: context.databaseBudget)
    }

    func render(_ order: Order, in context: RequestContext) -> Page {
        Page(
            title: context.localized(Messages.orderTitle, ["id": order.id]),
            body: context.render(OrderPageView.self, OrderPageModel(order: OrderSummary(order), items: LineItems(order))),
            status: returnedForm == nil ? .ok : .unprocessableContent)
    }

    func regions(for order: Order, in context: RequestContext) -> OrderPageView.Regions<Region> {
        OrderPageView.Regions(
            status: Region(
                source: OrdersRoutes.orderStatus.path(order.id),
                controller: OrderStatusChildren.region(for: order, returnedForm: returnedForm), isRequired: true))
    }
}
