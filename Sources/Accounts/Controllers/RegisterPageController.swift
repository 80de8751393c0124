import Tessera
import TesseraViews

/// `/register`: the registration form, empty or sent back with its errors (422).
struct RegisterPageController: PageController {
    let form: FormState

    /// A form, the same for every view: only the session's token varies.
    var freshness: PageFreshness { .unchanging }

    func load(_ context: RequestContext) async throws -> RegisterPage { RegisterPage(form) }

    func render(_ page: RegisterPage, in context: RequestContext) -> Page {
        Page(
            title: context.localized(Messages.registerTitle), body: context.render(RegisterView.self, page),
            status: form.isValid ? .ok : .unprocessableContent)
    }
}
