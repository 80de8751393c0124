import Foundation
import Logging
import Tessera
import TesseraPasskeys
import TesseraViews

/// Adding a passkey and signing in with one. Each ceremony's options come as JSON to the page's
/// script (`/js/passkeys.js`), which asks the browser, then posts the answer in an ordinary form:
/// the answer is a redirect (Post/Redirect/Get), and a refusal is the page again with why (422).
/// The page's origin is the site's (`PUBLIC_URL`, else the request's own), which the browser's
/// answer must name.
struct PasskeyActions {
    let passkeys: PasskeyService
    let accounts: AccountsService
    let steps: SignInSteps

    func register(in routes: inout RouterBuilder) {
        let passkeys = self.passkeys, accounts = self.accounts, steps = self.steps
        routes.action(AccountsRoutes.passkeyRegistrationOptions) { _, context in
            guard let shopper = context.shopper, let user = try await accounts.user(id: shopper.id, within: context.databaseBudget) else {
                throw HTTPError(.forbidden, Messages.errorPasskeySignIn.text())
            }
            return try Self.json(
                await passkeys.registrationOptions(for: user, sessionID: try Self.sessionID(context), within: context.databaseBudget))
        }
        routes.action(AccountsRoutes.addPasskey) { _, context in
            guard let shopper = context.shopper else {
                return context.redirect(to: AccountsRoutes.login(returningTo: AccountsRoutes.account.path))
            }
            do {
                guard case .valid(let form) = try context.decodeForm(PasskeyRegistrationForm.self) else {
                    throw PasskeyError.malformed("an empty form")
                }
                _ = try await passkeys.register(
                    clientDataJSON: form.clientDataJSON, attestationObject: form.attestationObject, userID: shopper.id,
                    sessionID: try Self.sessionID(context), origin: context.absoluteURL(for: ""), within: context.databaseBudget)
                context.session[Self.ceremonyKey] = nil
                context.logger.info("passkey added", metadata: ["user_id": "\(shopper.id)"])
                return context.redirect(to: AccountsRoutes.account.path, flash: context.localized(Messages.accountPasskeyAdded))
            } catch let refusal as PasskeyError {
                context.logger.notice("passkey refused", metadata: ["user_id": "\(shopper.id)", "reason": "\(refusal)"])
                return try await context.render(
                    AccountPageController(accounts: accounts, passkeys: passkeys, passkeyError: refusal.publicMessage(in: context.language)))
            }
        }
        routes.action(AccountsRoutes.passkeySignInOptions) { _, context in
            try Self.json(await passkeys.signInOptions(sessionID: try Self.sessionID(context), within: context.databaseBudget))
        }
        routes.action(AccountsRoutes.submitPasskeySignIn) { _, context in
            let next = SafeRedirect.localPath(try context.request.form()["next"])
            do {
                guard case .valid(let form) = try context.decodeForm(PasskeySignInForm.self) else { throw PasskeyError.malformed("an empty form") }
                let user = try await passkeys.signIn(
                    credentialID: form.credentialID, clientDataJSON: form.clientDataJSON,
                    authenticatorData: form.authenticatorData, signature: form.signature,
                    userHandle: form.userHandle, sessionID: try Self.sessionID(context),
                    origin: context.absoluteURL(for: ""), within: context.databaseBudget)
                context.session[Self.ceremonyKey] = nil
                await steps.signIn(user, in: context)
                context.logger.info("signed in with a passkey", metadata: ["user_id": "\(user.id)"])
                return context.redirect(to: next, flash: context.localized(Messages.loginSignedIn, ["name": user.name]))
            } catch let refusal as PasskeyError {
                context.logger.notice(
                    "passkey sign-in refused",
                    metadata: ["client": "\(context.request.clientAddress.map { "\($0)" } ?? "-")", "reason": "\(refusal)"])
                return try await context.render(
                    LoginPageController(form: FormState(values: ["next": next], errors: ["passkey": refusal.publicMessage(in: context.language)])))
            }
        }
    }

    /// The session the challenge is bound to. A visitor has no session until something is kept
    /// in it, so asking for a challenge keeps one: the ceremony's answer comes back to it.
    static func sessionID(_ context: RequestContext) throws(HTTPError) -> String {
        guard let id = context.session.id else { throw HTTPError(.badRequest, Messages.errorReload.text()) }
        if context.session[ceremonyKey] == nil { context.session[ceremonyKey] = "1" }
        return id
    }

    /// What keeps a visitor's session while a passkey ceremony is under way.
    static let ceremonyKey = "passkey.ceremony"

    /// `value` as JSON that no cache keeps: each answer holds a new challenge.
    static func json(_ value: some Encodable) throws -> Response {
        var response = try Response.json(value)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
