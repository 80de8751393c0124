import Catalog
import Tessera
import TesseraViews

/// The order page's `status` region: one child controller per status, picked by an exhaustive
/// `switch`, so a new status does not compile until it has its child.
enum OrderStatusChildren {
    static func region(for order: Order, returnedForm: ReturnedForm? = nil) -> any RegionController {
        var cancellation: CancelForm?
        if case .cancellation(let state) = returnedForm {
            cancellation = CancelForm(order, reason: state.value("reason"), error: state.error("reason"))
        }
        switch order.status {
        case .awaitingPayment:
            return AwaitingPaymentRegion(order: order, cancellation: cancellation)
        case .paid:
            return AwaitingShipmentRegion(order: order, cancellation: cancellation)
        case .shipped:
            return ShippedRegion(order: order)
        case .completed:
            if case .review(let state) = returnedForm { return CompletedRegion(order: order, form: state) }
            return CompletedRegion(order: order, form: FormState())
        case .cancelled:
            return CancelledRegion(order: order)
        }
    }
}

/// The `status` region alone, at its own URL, for scrapers and the refresh script: it loads the
/// order, then lets the status's child answer.
struct OrderStatusRegion: RegionController {
    let orders: OrderService
    let id: Int
    let userID: Int

    var topics: [Topic] { [OrdersTopics.order(id)] }

    func render(in context: RequestContext) async throws -> HTMLOutput {
        let order = try await OrderLookup(orders: orders).order(id, of: userID, within: context.databaseBudget)
        return try await OrderStatusChildren.region(for: order).render(in: context)
    }
}

/// A child of the status region: it shows one order, and changes with it.
protocol OrderStateRegion: RegionController {
    var order: Order { get }
}

extension OrderStateRegion {
    var topics: [Topic] { [OrdersTopics.order(order.id)] }
}

/// Awaiting payment: the amount due, Pay, and Cancel.
struct AwaitingPaymentRegion: OrderStateRegion {
    let order: Order
    let cancellation: CancelForm?

    func render(in context: RequestContext) async throws -> HTMLOutput {
        context.render(AwaitingPaymentView.self, PayableOrder(order, cancellation: cancellation))
    }
}

/// Paid: awaiting shipment, with the payment, and Cancel.
struct AwaitingShipmentRegion: OrderStateRegion {
    let order: Order
    let cancellation: CancelForm?

    func render(in context: RequestContext) async throws -> HTMLOutput {
        context.render(AwaitingShipmentView.self, PaidOrder(order, cancellation: cancellation))
    }
}

/// Shipped: the tracking number, and Confirm receipt.
struct ShippedRegion: OrderStateRegion {
    let order: Order

    func render(in context: RequestContext) async throws -> HTMLOutput {
        context.render(
            ShippedView.self, ShippedOrder(trackingNumber: order.trackingNumber ?? "—", confirmURL: OrdersRoutes.confirmReceipt.path(order.id)))
    }
}

/// Completed: the review form, then the review.
struct CompletedRegion: OrderStateRegion {
    let order: Order
    let form: FormState

    func render(in context: RequestContext) async throws -> HTMLOutput {
        context.render(CompletedView.self, CompletedOrder(order, form: form))
    }
}

/// Cancelled: the reason.
struct CancelledRegion: OrderStateRegion {
    let order: Order

    func render(in context: RequestContext) async throws -> HTMLOutput {
        let settlement =
            order.payment.map { context.localized(Messages.cancelledRefunded, ["amount": Price(minor: $0.amountMinor)]) }
            ?? context.localized(Messages.cancelledNothingCharged)
        return context.render(
            CancelledView.self,
            CancelledOrder(reason: order.cancellationReason ?? context.localized(Messages.cancelledNoReason), settlement: settlement))
    }
}
