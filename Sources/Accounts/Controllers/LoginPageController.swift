import Tessera
import TesseraViews

/// `/login`: the sign-in form, empty or sent back with its errors (422).
struct LoginPageController: PageController {
    let form: FormState

    /// A form, the same for every view: only the session's token varies.
    var freshness: PageFreshness { .unchanging }

    func load(_ context: RequestContext) async throws -> LoginPage { LoginPage(form) }

    func render(_ page: LoginPage, in context: RequestContext) -> Page {
        Page(
            title: context.localized(Messages.loginTitle), body: context.render(LoginView.self, page),
            status: form.isValid ? .ok : .unprocessableContent)
    }
}
