import Tessera
import TesseraViews

/// `/password/forgot`: the e-mail form, empty, sent back with its errors (422), or shown to a
/// visitor whose reset link no longer works (404, with a word about it).
struct ForgotPasswordPageController: PageController {
    let form: FormState
    var linkDead = false

    /// A form, the same for every view: only the session's token varies.
    var freshness: PageFreshness { .unchanging }

    func load(_ context: RequestContext) async throws -> ForgotPasswordPage { ForgotPasswordPage(form, linkDead: linkDead) }

    func render(_ page: ForgotPasswordPage, in context: RequestContext) -> Page {
        Page(
            title: context.localized(Messages.forgotTitle), body: context.render(ForgotPasswordView.self, page),
            status: linkDead ? .notFound : form.isValid ? .ok : .unprocessableContent)
    }
}
