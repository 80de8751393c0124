import Accounts
import Catalog
import Tessera
import TesseraViews

/// The order page's forms. Each asks the service, whose state machine decides; a refused
/// transition (paying a cancelled order, reviewing an unfinished one) is thrown as an
/// ``OrderTransitionError``, which is answered as a 409 page saying why, with a link back to the order.
struct OrderActions {
    let orders: OrderService

    func register(in routes: inout GuaranteedRoutes<SignedInShopper>) {
        let orders = self.orders
        let lookup = OrderLookup(orders: orders)
        routes.action(OrdersRoutes.pay, page: OrdersRoutes.order) { id, context, shopper in
            try await Self.onOrder(id, in: context) {
                let order = try await lookup.order(id, of: shopper.id, within: context.databaseBudget)
                switch try context.decodeForm(PayForm.self) {
                case .invalid:
                    throw HTTPError(.badRequest, Messages.errorPaymentForm.text())
                        .linking(to: Self.backLink(to: id, in: context))
                case .valid(let form):
                    let outcome = try await orders.pay(order, idempotencyKey: form.idempotencyKey, by: shopper.author, within: context.databaseBudget)
                    let message =
                        switch outcome {
                        case .charged(let paid): context.localized(Messages.orderCharged, ["amount": Price(minor: paid.totalMinor), "id": paid.id])
                        case .alreadyCharged(let paid): context.localized(Messages.orderAlreadyCharged, ["id": paid.id])
                        }
                    return context.redirect(to: OrdersRoutes.order.path(id), flash: message)
                }
            }
        }
        routes.action(OrdersRoutes.cancel, page: OrdersRoutes.order) { id, context, shopper in
            try await Self.onOrder(id, in: context) {
                let order = try await lookup.order(id, of: shopper.id, within: context.databaseBudget)
                switch try context.decodeForm(CancelOrderForm.self) {
                case .invalid(let state):
                    return try await context.render(
                        OrderPageController(orders: orders, id: id, userID: shopper.id, returnedForm: .cancellation(state)))
                case .valid(let form):
                    _ = try await orders.cancel(order, reason: form.reason, by: shopper.author, within: context.databaseBudget)
                    return context.redirect(to: OrdersRoutes.order.path(id), flash: context.localized(Messages.orderCancelledFlash, ["id": id]))
                }
            }
        }
        routes.action(OrdersRoutes.confirmReceipt, page: OrdersRoutes.order) { id, context, shopper in
            try await Self.onOrder(id, in: context) {
                let order = try await lookup.order(id, of: shopper.id, within: context.databaseBudget)
                _ = try await orders.confirmReceipt(order, by: shopper.author, within: context.databaseBudget)
                return context.redirect(to: OrdersRoutes.order.path(id), flash: context.localized(Messages.orderConfirmedFlash))
            }
        }
        routes.action(OrdersRoutes.review, page: OrdersRoutes.order) { id, context, shopper in
            try await Self.onOrder(id, in: context) {
                let order = try await lookup.order(id, of: shopper.id, within: context.databaseBudget)
                // The state decides first: a review form for an unfinished order is a conflict, whatever it says.
                try orders.checkReviewable(order)
                switch try context.decodeForm(ReviewForm.self) {
                case .invalid(let state):
                    return try await context.render(OrderPageController(orders: orders, id: id, userID: shopper.id, returnedForm: .review(state)))
                case .valid(let form):
                    _ = try await orders.review(order, rating: form.rating, text: form.text, by: shopper.author, within: context.databaseBudget)
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
