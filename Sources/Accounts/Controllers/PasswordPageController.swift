import Tessera
import TesseraViews

/// `/account/password`: the password change form, empty or sent back with its errors (422); a
/// visitor is sent to sign in first.
struct PasswordPageController: PageController {
    let form: FormState

    func load(_ context: RequestContext) async throws -> PasswordPage {
        guard context.shopper != nil else { throw Redirect(to: AccountsRoutes.login(returningTo: AccountsRoutes.changePassword.path)) }
        return PasswordPage(form)
    }

    func render(_ page: PasswordPage, in context: RequestContext) -> Page {
        Page(
            title: context.localized(Messages.passwordTitle), body: context.render(PasswordView.self, page),
            status: form.isValid ? .ok : .unprocessableContent)
    }
}
