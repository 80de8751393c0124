import Tessera
import TesseraViews

/// `/orders/{id}`: a container. The page shows the order and its items; its `status` region is
/// served by a child controller picked per status (``OrderStatusRegion``). An order that is not
/// the shopper's is a 404, exactly like one that does not exist.
struct OrderPageController: PageController {
    let orders: OrderService
    let id: Int
    /// A form that came back with errors, shown again in the status region (with status 422).
    var returnedForm: ReturnedForm?

    func load(_ context: RequestContext) async throws -> Order {
        try await OrderLookup(orders: orders).order(id, in: context)
    }

    func render(_ order: Order, in context: RequestContext) -> Page {
        Page(title: "Order #\(order.id)", body: OrderPageView.render(OrderPageModel(order: OrderSummary(order), items: LineItems(order))),
             status: returnedForm == nil ? .ok : .unprocessableContent)
    }

    func regions(for order: Order, in context: RequestContext) -> [Region] {
        [Region("status", source: OrdersRoutes.orderStatus.path(order.id),
                controller: OrderStatusRegion.child(for: order, returnedForm: returnedForm), isRequired: true)]
    }
}

struct OrderPageModel: Sendable {
    var order: OrderSummary
    var items: LineItems
}

/// A form of the order page sent back with errors: which one, and what was typed.
enum ReturnedForm: Sendable {
    case review(FormState)
    case cancellation(FormState)
}

/// Loads the signed-in shopper's order, or answers as if it did not exist.
struct OrderLookup {
    let orders: OrderService

    func order(_ id: Int, in context: RequestContext, returningTo returnPath: String? = nil) async throws -> Order {
        let userID = try SignedInShopper.require(context, returningTo: returnPath)
        guard let order = try await orders.order(id, of: userID) else {
            throw HTTPError(.notFound, message: "There is no order #\(id) in your account.")
        }
        return order
    }
}
