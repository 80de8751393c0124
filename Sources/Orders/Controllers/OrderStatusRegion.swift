import Catalog
import Tessera
import TesseraViews

/// The order page's `status` region: one child controller per status, picked by an exhaustive
/// `switch`, so a new status does not compile until it has its child.
enum OrderStatusRegion {
    static func child(for order: Order, returnedForm: ReturnedForm? = nil) -> any RegionController {
        var cancellation: CancelForm?
        if case .cancellation(let state) = returnedForm {
            cancellation = CancelForm(order, reason: state.value("reason"), error: state.error("reason"))
        }
        switch order.status {
        case .awaitingPayment:
            return AwaitingPaymentController(order: order, cancellation: cancellation)
        case .paid:
            return AwaitingShipmentController(order: order, cancellation: cancellation)
        case .shipped:
            return ShippedController(order: order)
        case .completed:
            if case .review(let state) = returnedForm { return CompletedController(order: order, form: state) }
            return CompletedController(order: order, form: FormState())
        case .cancelled:
            return CancelledController(order: order)
        }
    }
}

/// Awaiting payment: the amount due, Pay, and Cancel.
struct AwaitingPaymentController: RegionController {
    let order: Order
    let cancellation: CancelForm?

    func render(in context: RequestContext) async throws -> HTMLOutput {
        AwaitingPaymentView.render(PayableOrder(order, cancellation: cancellation))
    }
}

/// Paid: awaiting shipment, with the payment, and Cancel.
struct AwaitingShipmentController: RegionController {
    let order: Order
    let cancellation: CancelForm?

    func render(in context: RequestContext) async throws -> HTMLOutput {
        AwaitingShipmentView.render(PaidOrder(order, cancellation: cancellation))
    }
}

/// Shipped: the tracking number, and Confirm receipt.
struct ShippedController: RegionController {
    let order: Order

    func render(in context: RequestContext) async throws -> HTMLOutput {
        ShippedView.render(ShippedOrder(trackingNumber: order.trackingNumber ?? "—", confirmURL: OrdersRoutes.confirmReceipt.path(order.id)))
    }
}

/// Completed: the review form, then the review.
struct CompletedController: RegionController {
    let order: Order
    let form: FormState

    func render(in context: RequestContext) async throws -> HTMLOutput {
        CompletedView.render(CompletedOrder(order, form: form))
    }
}

/// Cancelled: the reason.
struct CancelledController: RegionController {
    let order: Order

    func render(in context: RequestContext) async throws -> HTMLOutput {
        let settlement = order.payment.map { "Your payment of \(Money.format(minor: $0.amountMinor)) was refunded." } ?? "Nothing was charged."
        return CancelledView.render(CancelledOrder(reason: order.cancellationReason ?? "No reason given.", settlement: settlement))
    }
}

/// The `status` region alone, at its own URL, for scrapers and the refresh script.
struct OrderStatusFragment: RegionController {
    let orders: OrderService
    let id: Int

    func render(in context: RequestContext) async throws -> HTMLOutput {
        let order = try await OrderLookup(orders: orders).order(id, in: context, returningTo: OrdersRoutes.order.path(id))
        return try await OrderStatusRegion.child(for: order).render(in: context)
    }
}
