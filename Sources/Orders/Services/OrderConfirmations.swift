public import Accounts
import Foundation
import Logging
import Tessera
public import TesseraMail
import TesseraViews

/// The mail a buyer gets when their order is placed: who sends it, how the buyer is reached,
/// and the message, rendered from typed views (`Views/Orders/mail/`).
///
/// Checkout puts the message in the outbox in the order's own transaction, so there is a mail
/// for every order and for no order that was rolled back. Its `Message-ID` is the order's, so
/// every attempt to send it is the same message. A buyer whose address cannot be mailed (an
/// account older than today's address rule) gets a dead letter in its place, which staff see in
/// the back office, mend and send again (``resend(_:to:site:)``).
public struct OrderConfirmations: Sendable {
    let sender: MailAddress
    let accounts: AccountsService
    let deadLetters: any DeadLetterOffice
    let logger = Logger(label: "tessera.orders.mail")

    /// Confirmations from `sender`, to the address of the buyer's account in `accounts`; what
    /// cannot be sent waits in `deadLetters` for staff.
    public init(sender: MailAddress, accounts: AccountsService, deadLetters: any DeadLetterOffice) {
        self.sender = sender
        self.accounts = accounts
        self.deadLetters = deadLetters
    }

    /// How checkout reaches the buyer.
    enum Recipient: Sendable {
        /// Their account's address, fit for mail.
        case address(MailAddress)
        /// Their account's address, which mail cannot reach, and why.
        case unusable(String, reason: String)
    }

    /// The buyer as the mail addresses them; `nil` for a user that does not exist.
    func recipient(userID: Int, within budget: DatabaseBudget) async throws -> Recipient? {
        guard let user = try await accounts.user(id: userID, within: budget) else { return nil }
        if let address = MailAddress(user.email, name: user.name) { return .address(address) }
        return .unusable(user.email, reason: MailAddress.problem(in: user.email) ?? "the address cannot be mailed")
    }

    /// Writes `order`'s confirmation to the outbox in the order's transaction (`outbox`): the
    /// mail, or the dead letter in its place. Returns the dead letter's reason, to report once
    /// the transaction has committed.
    func enqueue(for order: Order, to recipient: Recipient, site: String, language: Language, in outbox: some MailOutboxWrites) throws -> String? {
        switch recipient {
        case .address(let buyer):
            try outbox.enqueue(message(for: order, to: buyer, site: site, language: language))
            return nil
        case .unusable(let address, let reason):
            try outbox.bury(
                UnsendableMail(
                    messageID: messageID(for: order), reference: ConfirmationReference(orderID: order.id, language: language.code).text,
                    recipient: address, reason: reason))
            return reason
        }
    }

    /// Reports the dead letter `enqueue` made for `order`, after its transaction committed.
    func reportUnsendable(_ order: Order, reason: String) {
        DeadLetterCause.unsendable.report(messageID: messageID(for: order), reason: reason, logger: logger)
    }

    /// The confirmation of `order` to `buyer`, in `language` (the one the buyer checked out in);
    /// `site` (`https://shop.example.com`) makes the link absolute.
    func message(for order: Order, to buyer: MailAddress, site: String, language: Language) -> OutgoingMail {
        let model = OrderPlacedMail(
            buyerName: buyer.name ?? buyer.address, orderID: order.id,
            orderURL: site + OrdersRoutes.order.path(order.id), items: LineItems(order),
            placedOn: LocalizedDate(order.placedAt), languageCode: language.code)
        return MailMessage(
            from: sender, to: buyer,
            subject: Messages.mailSubject.string(in: language, ["id": order.id]),
            messageID: messageID(for: order),
            date: order.placedAt,
            html: MailOrderPlacedView.render(model, language: language).string,
            text: MailOrderPlacedTextView.render(model, language: language),
            language: language.code
        ).outgoing(reference: ConfirmationReference(orderID: order.id, language: language.code).text)
    }

    /// `order-42.1764000000@shop.example`: the same for every attempt and every resend.
    func messageID(for order: Order) -> String {
        let domain = sender.address.split(separator: "@").last.map(String.init) ?? "localhost"
        return "order-\(order.id).\(Int(order.placedAt.timeIntervalSince1970))@\(domain)"
    }
}

/// What an order's confirmation is about, kept beside it in the outbox (`order:42:de`): the
/// order, and the language the buyer checked out in, so a dead letter can be made again.
struct ConfirmationReference: Equatable {
    let orderID: Int
    let language: String

    var text: String { "order:\(orderID):\(language)" }

    init(orderID: Int, language: String) {
        self.orderID = orderID
        self.language = language
    }

    /// `nil` for another kind of mail's reference.
    init?(_ text: String?) {
        let parts = text?.split(separator: ":") ?? []
        guard parts.count == 3, parts[0] == "order", let id = Int(parts[1]) else { return nil }
        self.init(orderID: id, language: String(parts[2]))
    }
}
