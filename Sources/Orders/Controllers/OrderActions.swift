import Catalog
import Tessera
import TesseraViews

/// The order page's forms. Each asks the service, whose state machine decides; a refused
/// transition (paying a cancelled order, reviewing an unfinished one) is thrown as an
/// ``OrderTransitionError``, which is answered as a 409 page saying why, with a link back to the order.
struct OrderActions {
    let orders: OrderService

    func register(in routes: inout RouterBuilder) {
        let orders = self.orders
        let lookup = OrderLookup(orders: orders)
        routes.action(OrdersRoutes.pay) { id, context in
            try await Self.onOrder(id, in: context) {
                let order = try await lookup.order(id, in: context, returningTo: OrdersRoutes.order.path(id))
                switch try context.decodeForm(PayForm.self) {
                case .invalid:
                    throw HTTPError(.badRequest, Messages.errorPaymentForm.text())
                        .linking(to: Self.backLink(to: id, in: context))
                case .valid(let form):
                    let outcome = try await orders.pay(order, idempotencyKey: form.idempotencyKey, by: SignedInShopper.author(context))
                    let message = switch outcome {
                    case .charged(let paid): context.localized(Messages.orderCharged, ["amount": Price(minor: paid.totalMinor), "id": paid.id])
                    case .alreadyCharged(let paid): context.localized(Messages.orderAlreadyCharged, ["id": paid.id])
                    }
                    return context.redirect(to: OrdersRoutes.order.path(id), flash: message)
                }
            }
        }
        routes.action(OrdersRoutes.cancel) { id, context in
            try await Self.onOrder(id, in: context) {
                let order = try await lookup.order(id, in: context, returningTo: OrdersRoutes.order.path(id))
                switch try context.decodeForm(CancelOrderForm.self) {
                case .invalid(let state):
                    return try await context.render(OrderPageController(orders: orders, id: id, returnedForm: .cancellation(state)))
                case .valid(let form):
                    _ = try await orders.cancel(order, reason: form.reason, by: SignedInShopper.author(context))
                    return context.redirect(to: OrdersRoutes.order.path(id), flash: context.localized(Messages.orderCancelledFlash, ["id": id]))
                }
            }
        }
        routes.action(OrdersRoutes.confirmReceipt) { id, context in
            try await Self.onOrder(id, in: context) {
                let order = try await lookup.order(id, in: context, returningTo: OrdersRoutes.order.path(id))
                _ = try await orders.confirmReceipt(order, by: SignedInShopper.author(context))
                return context.redirect(to: OrdersRoutes.order.path(id), flash: context.localized(Messages.orderConfirmedFlash))
            }
        }
        routes.action(OrdersRoutes.review) { id, context in
            try await Self.onOrder(id, in: context) {
                let order = try await lookup.order(id, in: context, returningTo: OrdersRoutes.order.path(id))
                // The state decides first: a review form for an unfinished order is a conflict, whatever it says.
                try orders.checkReviewable(order)
                switch try context.decodeForm(ReviewForm.self) {
                case .invalid(let state):
                    return try await context.render(OrderPageController(orders: orders, id: id, returnedForm: .review(state)))
                case .valid(let form):
                    _ = try await orders.review(order, rating: form.rating, text: form.text, by: SignedInShopper.author(context))
                    return context.redirect(to: OrdersRoutes.order.path(id), flash: context.localized(Messages.orderReviewedFlash))
                }
            }
        }
    }

    /// The way back from an error page about order `id`.
    static func backLink(to id: Int, in context: RequestContext) -> ErrorPageLink {
        ErrorPageLink(context.localized(Messages.orderBackTo, ["id": id]), url: OrdersRoutes.order.path(id))
    }

    /// Runs the action of one of order `id`'s forms. A transition the state machine refuses keeps
    /// its 409 and its message, and its page links back to the order.
    static func onOrder(_ id: Int, in context: RequestContext, _ action: () async throws -> Response) async throws -> Response {
        do {
            return try await action()
        } catch let refusal as OrderTransitionError {
            throw refusal.linking(to: backLink(to: id, in: context))
        }
    }
}
