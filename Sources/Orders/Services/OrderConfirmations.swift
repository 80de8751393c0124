import Accounts
import Foundation
import Tessera
import TesseraViews

/// The mail a buyer gets when their order is placed: who sends it, how the buyer is reached,
/// and the message, rendered from typed views (`Views/Orders/mail/`).
///
/// Checkout puts the message in the outbox in the order's own transaction, so there is a mail
/// for every order and for no order that was rolled back. Its `Message-ID` is the order's, so
/// every attempt to send it is the same message.
public struct OrderConfirmations: Sendable {
    let sender: MailAddress
    let accounts: AccountsService

    /// Confirmations from `sender`, to the address of the buyer's account in `accounts`.
    public init(sender: MailAddress, accounts: AccountsService) {
        self.sender = sender
        self.accounts = accounts
    }

    /// The buyer as the mail addresses them, or `nil` for an account without a usable address.
    func recipient(userID: Int) async throws -> MailAddress? {
        guard let user = try await accounts.user(id: userID) else { return nil }
        return MailAddress(user.email, name: user.name)
    }

    /// The confirmation of `order` to `buyer`, in `language` (the one the buyer checked out in);
    /// `site` (`https://shop.example.com`) makes the link absolute.
    func message(for order: Order, to buyer: MailAddress, site: String, language: Language) -> OutgoingMail {
        let model = OrderPlacedMail(buyerName: buyer.name ?? buyer.address, orderID: order.id,
                                    orderURL: site + OrdersRoutes.order.path(order.id), items: LineItems(order),
                                    placedOn: LocalizedDate(order.placedAt), languageCode: language.code)
        let domain = sender.address.split(separator: "@").last.map(String.init) ?? "localhost"
        return MailMessage(
            from: sender, to: buyer,
            subject: Messages.mailSubject.string(in: language, ["id": order.id]),
            messageID: "order-\(order.id).\(Int(order.placedAt.timeIntervalSince1970))@\(domain)",
            date: order.placedAt,
            html: MailOrderPlacedView.render(model, language: language).string,
            text: MailOrderPlacedTextView.render(model, language: language),
            language: language.code
        ).outgoing()
    }
}
