import Tessera

struct PayForm: FormModel {
    var idempotencyKey: String

    init(reading form: inout FormReader) {
        idempotencyKey = form.text("idempotencyKey", maxLength: 64, label: "Payment key")
    }
}

struct CancelOrderForm: FormModel {
    var reason: String

    init(reading form: inout FormReader) {
        reason = form.text("reason", required: false, maxLength: 200, label: "Reason")
    }
}

struct ReviewForm: FormModel {
    var rating: Int
    var text: String

    init(reading form: inout FormReader) {
        rating = form.integer("rating", in: 1...5, label: "Rating")
        text = form.text("text", maxLength: 2000, label: "Review")
    }
}

/// The order page's forms. Each asks the service, whose state machine decides; a refused
/// transition (paying a cancelled order, reviewing an unfinished one) is a 409 page saying why.
struct OrderActions {
    let orders: OrderService

    func register(in routes: inout RouteTableBuilder) {
        let orders = self.orders
        let lookup = OrderLookup(orders: orders)
        routes.action(OrdersRoutes.pay) { id, context in
            let order = try await lookup.order(id, in: context, returningTo: OrdersRoutes.order.path(id))
            switch try context.decodeForm(PayForm.self) {
            case .invalid:
                throw HTTPError(.badRequest, message: "The payment form is incomplete; please use the Pay button on the order page.")
            case .valid(let form):
                let outcome = try await Self.refusingConflicts { try await orders.pay(order, idempotencyKey: form.idempotencyKey) }
                let message = switch outcome {
                case .charged(let paid): "Thank you! We charged \(OrderSummary(paid).total) for order #\(paid.id)."
                case .alreadyCharged(let paid): "Order #\(paid.id) was already paid with this form; nothing more was charged."
                }
                return context.redirect(to: OrdersRoutes.order.path(id), flash: message)
            }
        }
        routes.action(OrdersRoutes.cancel) { id, context in
            let order = try await lookup.order(id, in: context, returningTo: OrdersRoutes.order.path(id))
            switch try context.decodeForm(CancelOrderForm.self) {
            case .invalid(let state):
                return try await context.render(OrderPageController(orders: orders, id: id, returnedForm: .cancellation(state)))
            case .valid(let form):
                _ = try await Self.refusingConflicts { try await orders.cancel(order, reason: form.reason) }
                return context.redirect(to: OrdersRoutes.order.path(id), flash: "Order #\(id) is cancelled.")
            }
        }
        routes.action(OrdersRoutes.confirmReceipt) { id, context in
            let order = try await lookup.order(id, in: context, returningTo: OrdersRoutes.order.path(id))
            _ = try await Self.refusingConflicts { try await orders.confirmReceipt(order) }
            return context.redirect(to: OrdersRoutes.order.path(id), flash: "Thank you for confirming. How was it? Leave a review below.")
        }
        routes.action(OrdersRoutes.review) { id, context in
            let order = try await lookup.order(id, in: context, returningTo: OrdersRoutes.order.path(id))
            // The state decides first: a review form for an unfinished order is a conflict, whatever it says.
            try await Self.refusingConflicts { try orders.checkReviewable(order) }
            switch try context.decodeForm(ReviewForm.self) {
            case .invalid(let state):
                return try await context.render(OrderPageController(orders: orders, id: id, returnedForm: .review(state)))
            case .valid(let form):
                _ = try await Self.refusingConflicts { try await orders.review(order, rating: form.rating, text: form.text) }
                return context.redirect(to: OrdersRoutes.order.path(id), flash: "Thank you for your review.")
            }
        }
    }

    /// A transition the state machine refused, answered as a 409 page that explains it.
    static func refusingConflicts<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let refusal as OrderTransitionError {
            throw HTTPError(.conflict, message: refusal.description)
        }
    }
}
