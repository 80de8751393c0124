import Tessera
import TesseraViews

/// `/account`: who is signed in and their passkeys; a visitor is sent to sign in first. A
/// passkey that could not be added shows the page again with why (422).
struct AccountPageController: PageController {
    let accounts: AccountsService
    let passkeys: PasskeyService
    var passkeyError: String? = nil

    func load(_ context: RequestContext) async throws -> AccountPage {
        guard let shopper = context.shopper, let user = try await accounts.user(id: shopper.id, within: context.databaseBudget) else {
            throw Redirect(to: AccountsRoutes.login(returningTo: context.request.target))
        }
        return AccountPage(user: user, passkeys: try await passkeys.passkeys(of: user.id, within: context.databaseBudget), passkeyError: passkeyError)
    }

    func render(_ page: AccountPage, in context: RequestContext) -> Page {
        Page(
            title: context.localized(Messages.accountTitle), body: context.render(AccountView.self, page),
            status: passkeyError == nil ? .ok : .unprocessableContent)
    }
}
