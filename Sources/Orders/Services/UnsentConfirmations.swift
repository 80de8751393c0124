import Accounts
import Catalog
import Foundation
import Logging
public import Tessera
public import TesseraMail
import TesseraViews

/// An order confirmation the outbox gave up on, as staff see it: the dead letter, its order, and
/// the address the buyer's account has now (perhaps mended since).
public struct UnsentConfirmation: Sendable, Identifiable {
    public let letter: DeadLetter
    /// The order it confirms; `nil` for a dead letter that is not an order's.
    public let orderID: Int?
    /// The buyer's account address today; `nil` when the order or account is gone.
    public let currentAddress: String?

    public var id: Int64 { letter.id }
}

/// What became of a confirmation staff asked to send again.
public enum ResendOutcome: Sendable, Equatable {
    /// Back in the outbox, to be sent at once.
    case queued
    /// It was no longer a dead letter: sent again or discarded meanwhile (a second click, a colleague).
    case gone
}

extension OrderService {
    /// The confirmations that were not sent, oldest first, at most `limit`.
    public func unsentConfirmations(limit: Int = 200, within budget: DatabaseBudget) async throws -> [UnsentConfirmation] {
        guard let confirmations else { return [] }
        var unsent: [UnsentConfirmation] = []
        for letter in try await confirmations.deadLetters.deadLetters(limit: limit) {
            unsent.append(try await unsentConfirmation(letter, confirmations, within: budget))
        }
        return unsent
    }

    /// One unsent confirmation; `nil` when there is no dead letter `id`.
    public func unsentConfirmation(_ id: Int64, within budget: DatabaseBudget) async throws -> UnsentConfirmation? {
        guard let confirmations, let letter = try await confirmations.deadLetters.deadLetter(id) else { return nil }
        return try await unsentConfirmation(letter, confirmations, within: budget)
    }

    private func unsentConfirmation(
        _ letter: DeadLetter, _ confirmations: OrderConfirmations, within budget: DatabaseBudget
    ) async throws -> UnsentConfirmation {
        guard let reference = ConfirmationReference(letter.reference), let order = try await anyOrder(reference.orderID, within: budget) else {
            return UnsentConfirmation(letter: letter, orderID: ConfirmationReference(letter.reference)?.orderID, currentAddress: nil)
        }
        return UnsentConfirmation(
            letter: letter, orderID: order.id, currentAddress: try await confirmations.accounts.user(id: order.userID, within: budget)?.email)
    }

    /// Makes dead letter `id`'s confirmation again, to `address` (a form checked it, as at
    /// registration), in the language the buyer checked out in, and puts it back in the outbox.
    /// When `address` differs from the account's, the account gets it too, once the mail is
    /// queued: a letter that is gone (a second click, a colleague) changes no account. Throws
    /// ``RegistrationError/emailTaken`` when another account has `address`, and a 404 when the
    /// letter is not an order's confirmation or its order is gone.
    public func resendConfirmation(_ id: Int64, to address: String, site: String, within budget: DatabaseBudget) async throws -> ResendOutcome {
        guard let confirmations, let letter = try await confirmations.deadLetters.deadLetter(id) else { return .gone }
        guard let reference = ConfirmationReference(letter.reference), let order = try await anyOrder(reference.orderID, within: budget),
            let user = try await confirmations.accounts.user(id: order.userID, within: budget)
        else {
            throw HTTPError(.notFound, message: "Mail \(id) is not the confirmation of an order that still exists.")
        }
        guard let buyer = MailAddress(address, name: user.name) else {
            throw HTTPError(.unprocessableContent, message: MailAddress.problem(in: address) ?? "The address cannot be mailed.")
        }
        let changesAccount = address != user.email
        if changesAccount, try await confirmations.accounts.isTaken(address, byAnotherThan: user.id, within: budget) {
            throw RegistrationError.emailTaken
        }
        let language = Language(reference.language, currencies: [Money.currencyCode])
        guard try await confirmations.deadLetters.resend(id, as: confirmations.message(for: order, to: buyer, site: site, language: language)) else {
            return .gone
        }
        if changesAccount, !(try await confirmations.accounts.changeEmail(userID: user.id, from: user.email, to: address, within: budget)) {
            // Someone took the address, or the account changed its own, since the check above.
            confirmations.logger.warning(
                "confirmation sent again, but the account keeps its address",
                metadata: ["order_id": "\(order.id)", "address": "\(address)"])
        }
        return .queued
    }

    /// Sends every dead confirmation again to its buyer's address now, as staff do once the
    /// mail server's trouble is over; those whose address still cannot be mailed stay. Returns
    /// how many were sent again and how many stay.
    public func resendAllConfirmations(site: String, within budget: DatabaseBudget) async throws -> (queued: Int, waiting: Int) {
        var (queued, waiting) = (0, 0)
        for unsent in try await unsentConfirmations(within: budget) {
            guard let address = unsent.currentAddress, MailAddress(address) != nil else {
                waiting += 1
                continue
            }
            if try await resendConfirmation(unsent.id, to: address, site: site, within: budget) == .queued { queued += 1 }
        }
        return (queued, waiting)
    }

    /// Drops dead letter `id` for good; `false` when it was no longer a dead letter.
    public func discardConfirmation(_ id: Int64) async throws -> Bool {
        guard let confirmations else { return false }
        return try await confirmations.deadLetters.discard(id)
    }
}
