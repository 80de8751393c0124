import Crypto
import Foundation
import Logging
import Tessera
import TesseraViews

/// The forgotten password's forms: asking for a link, and setting the new password with it.
/// Asking answers with one redirect and one message whether or not an account has the e-mail;
/// it is limited per client before the form is read, and per e-mail after (429 pages, the same
/// for an address with an account and one without).
struct PasswordResetActions {
    let resets: PasswordResetService
    /// Requests per client address.
    let clientLimit: RateLimit
    /// Requests per e-mail, counted by the route once the form is read.
    let addressLimit: RateLimit

    func register(in routes: inout RouterBuilder) {
        let resets = self.resets, addressLimit = self.addressLimit
        routes.group(clientLimit) { routes in
            routes.action(AccountsRoutes.submitForgotPassword) { _, context in
                switch try context.decodeForm(ForgotPasswordForm.self) {
                case .invalid(let state):
                    return try await context.render(ForgotPasswordPageController(form: state))
                case .valid(let form):
                    try await addressLimit.count(Self.subject(of: form.email), in: context)
                    guard let site = context.trustedSite else {
                        context.logger.error("no password reset link: set PUBLIC_URL, the site the mail's link names")
                        throw ResetLinksNeedPublicURL()
                    }
                    try await resets.mailLink(to: form.email, site: site, language: context.language, within: context.databaseBudget)
                    return context.redirect(to: AccountsRoutes.login.path, flash: context.localized(Messages.forgotSent))
                }
            }
        }
        routes.secret { routes in Self.registerReset(resets, in: &routes) }
    }

    /// The new password's form: the link's token is in its path, which the log leaves out.
    static func registerReset(_ resets: PasswordResetService, in routes: inout RouterBuilder) {
        routes.action(AccountsRoutes.submitPasswordReset) { token, context in
            switch try context.decodeForm(PasswordResetForm.self) {
            case .invalid(let state):
                return try await context.render(ResetPasswordPageController(resets: resets, token: token, form: state))
            case .valid(let form):
                switch try await resets.reset(token, to: form.password, within: context.databaseBudget) {
                case .reset(let user):
                    // This browser's own session of the account ended too: forgotten now, as
                    // the next request would, so that the word below survives.
                    if context.shopper?.id == user.id { context.session.clear() }
                    return context.redirect(to: AccountsRoutes.login.path, flash: context.localized(Messages.resetDone))
                case .usedJustNow:
                    // The form sent twice (a double click): the first sending set the password.
                    return context.redirect(to: AccountsRoutes.login.path, flash: context.localized(Messages.resetJustUsed))
                case .dead:
                    context.logger.notice("password reset refused: the link is unknown, used or expired")
                    return try await context.render(ResetPasswordPageController.deadLink)
                }
            }
        }
    }

    /// An e-mail's key in the rate limits' store: its SHA-256, so that the store (a table, on
    /// PostgreSQL) keeps no addresses.
    static func subject(of email: String) -> String {
        "email:" + SHA256.hash(data: Data(email.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}
