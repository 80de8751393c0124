public import Foundation
import Logging
public import Tessera
public import TesseraMail
public import TesseraViews

/// Password resets by mail, as Rails' authentication generator, `phx.gen.auth` and ASP.NET
/// Identity give them: a link that works once, within ``validity``, to the account's address;
/// using it sets the new password and ends every session of the account.
///
/// Asking for a link answers the same whether or not an account has the address (the caller
/// shows one page for both), so the form tells nobody who has an account. The mail goes through
/// the outbox, in the transaction that keeps the reset: a link that exists is mailed, and a mail
/// that is sent has a link that works.
public struct PasswordResetService: Sendable {
    let store: any PasswordResetStore
    let accounts: AccountsService
    let sender: MailAddress
    let now: @Sendable () -> Date
    let logger = Logger(label: "tessera.accounts.password-reset")

    /// How long a link works: long enough to open the mail, short enough that an old mailbox's
    /// links are dead (OWASP's forgot-password guidance).
    public static let validity: Duration = .seconds(3600)

    /// - Parameters:
    ///   - store: where resets are kept, beside the accounts and the outbox.
    ///   - sender: who the mail is from.
    ///   - now: the clock; tests move it past ``validity``.
    public init(store: any PasswordResetStore, accounts: AccountsService, sender: MailAddress, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.accounts = accounts
        self.sender = sender
        self.now = now
    }

    /// Mails a reset link for the account with `email` to that address, if there is one, in
    /// `language`; `site` (`https://shop.example.com`) makes the link whole. Returns whether a
    /// mail went to the outbox, for the log alone: the shopper is told the same either way.
    @discardableResult
    public func mailLink(to email: String, site: SiteURL, language: Language, within budget: DatabaseBudget) async throws -> Bool {
        guard let user = try await accounts.store.user(email: email.lowercased(), within: budget) else { return false }
        guard let recipient = MailAddress(user.email, name: user.name) else {
            logger.warning(
                "no password reset mail: the account's address cannot be mailed",
                metadata: ["user_id": "\(user.id)", "reason": "\(MailAddress.problem(in: user.email) ?? "-")"])
            return false
        }
        let token = PasswordResetToken.random()
        let issued = now()
        let mail = message(
            to: recipient, link: site.absolute(AccountsRoutes.resetPassword.path(token)), digest: token.digest, date: issued, language: language)
        let expires = issued + Self.validity.timeInterval
        guard
            try await store.issue(
                digest: token.digest, userID: user.id, expiresAt: expires, unlessOneExpiresAfter: expires - Self.repeatWindow.timeInterval,
                mail: mail, now: issued, within: budget)
        else {
            logger.info("password reset link not mailed again: one went a moment ago", metadata: ["user_id": "\(user.id)"])
            return false
        }
        logger.info("password reset link mailed", metadata: ["user_id": "\(user.id)"])
        return true
    }

    /// A link asked for again within this of the last one is not mailed again: a double click
    /// or a retried request mails one link, a shopper who asks again later gets another.
    public static let repeatWindow: Duration = .seconds(60)

    /// What a use of a link came to.
    public enum Outcome: Sendable, Equatable {
        /// The account has the new password, and every session of it ended.
        case reset(User)
        /// The link was used a moment ago (``repeatWindow``): a form sent twice, whose first
        /// sending set the password.
        case usedJustNow
        /// The link is unknown, used long ago or expired; nothing changed.
        case dead
    }

    /// The account `token` resets, while its link is unused and unexpired; `nil` otherwise.
    public func account(resetBy token: PasswordResetToken, within budget: DatabaseBudget) async throws -> Int? {
        try await store.usableReset(token.digest, at: now(), within: budget)
    }

    /// Gives the account of `token` the password `password` and ends every session of it, if the
    /// link still works: of two uses at once, one wins, and the other learns it was just used.
    public func reset(_ token: PasswordResetToken, to password: String, within budget: DatabaseBudget) async throws -> Outcome {
        guard let user = try await resetting(token, to: password, within: budget) else {
            guard let used = try await store.usedAt(token.digest, within: budget), now().timeIntervalSince(used) < Self.repeatWindow.timeInterval
            else {
                return .dead
            }
            return .usedJustNow
        }
        return .reset(user)
    }

    /// The account, with its new password; `nil` when the link did not work, and nothing changed.
    private func resetting(_ token: PasswordResetToken, to password: String, within budget: DatabaseBudget) async throws -> User? {
        // A dead link costs no hashing.
        guard try await account(resetBy: token, within: budget) != nil else { return nil }
        let hash = try await accounts.passwordHash(for: password)
        let moment = now()
        guard
            let userID = try await store.redeem(
                token.digest, at: moment, passwordHash: hash, forgettingSignInsBefore: moment - AccountsService.sessionLifetime.timeInterval,
                within: budget)
        else { return nil }
        accounts.recorded(.everySession(userID: userID, signedInBefore: moment))
        logger.notice("password reset; every session ended", metadata: ["user_id": "\(userID)"])
        return try await accounts.user(id: userID, within: budget)
    }

    /// The mail with the link, in `language`: its own `Message-ID`, so a retry is the same mail.
    func message(to recipient: MailAddress, link: String, digest: String, date: Date, language: Language) -> OutgoingMail {
        let model = PasswordResetMail(
            name: recipient.name ?? recipient.address, link: link, validMinutes: Int(Self.validity.timeInterval / 60), languageCode: language.code)
        let domain = sender.address.split(separator: "@").last.map(String.init) ?? "localhost"
        return MailMessage(
            from: sender, to: recipient, subject: Messages.resetMailSubject.string(in: language),
            messageID: "password-reset.\(digest.prefix(24))@\(domain)", date: date,
            html: MailPasswordResetView.render(model, language: language).string,
            text: MailPasswordResetTextView.render(model, language: language),
            language: language.code
        ).outgoing(reference: OutgoingMail.secretPrefix + "password-reset")
    }
}
