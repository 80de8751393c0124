import TesseraViews
import Testing

@testable import Orders

/// The state machine, as a table: every (status, event) pair, allowed or refused.
@Suite struct OrderStateMachineTests {
    static let allowed: [OrderStatus: [OrderEvent: OrderStatus]] = [
        .awaitingPayment: [.pay: .paid, .cancel: .cancelled],
        .paid: [.ship: .shipped, .cancel: .cancelled],
        .shipped: [.confirmReceipt: .completed],
        .completed: [.review: .completed],
        .cancelled: [:],
    ]

    @Test(arguments: OrderStatus.allCases)
    func everyTransitionIsAllowedOrRefused(from status: OrderStatus) {
        for event in [OrderEvent.pay, .ship, .confirmReceipt, .cancel, .review] {
            if let next = Self.allowed[status]?[event] {
                #expect(throws: Never.self) { try status.applying(event) }
                #expect((try? status.applying(event)) == next, "\(status) + \(event)")
            } else {
                #expect(throws: OrderTransitionError(from: status, event: event)) { try status.applying(event) }
            }
        }
    }

    @Test func refusalsExplainThemselves() {
        #expect(OrderTransitionError(from: .cancelled, event: .pay).description == "An order with the status “Cancelled” cannot be paid.")
        #expect(
            OrderTransitionError(from: .cancelled, event: .pay).publicMessage(in: Language("de"))
                == "Eine Bestellung mit dem Status „Storniert“ kann nicht bezahlt werden.")
        #expect(OrderTransitionError(from: .paid, event: .pay).description == "This order is already paid.")
        #expect(
            OrderTransitionError(from: .shipped, event: .review).description
                == "Only a completed order can be reviewed; this one has the status “Shipped”.")
    }
}
