import Tessera
import TesseraViews

/// `/password/reset/{token}`: the new password's form while the link works (422 with its
/// errors), else the forgotten-password page, which says the link is dead (404).
struct ResetPasswordPageController: PageController {
    let resets: PasswordResetService
    let token: PasswordResetToken
    let form: FormState

    /// What the link leads to.
    enum Model: Sendable {
        case usable(ResetPasswordPage)
        case dead
    }

    func load(_ context: RequestContext) async throws -> Model {
        guard try await resets.account(resetBy: token, within: context.databaseBudget) != nil else { return .dead }
        return .usable(ResetPasswordPage(form, token: token))
    }

    /// The page a dead link shows.
    static let deadLink = ForgotPasswordPageController(form: FormState(), linkDead: true)

    func render(_ model: Model, in context: RequestContext) -> Page {
        switch model {
        case .usable(let page):
            Page(
                title: context.localized(Messages.resetTitle), body: context.render(ResetPasswordView.self, page),
                status: form.isValid ? .ok : .unprocessableContent)
        case .dead:
            Self.deadLink.render(ForgotPasswordPage(Self.deadLink.form, linkDead: true), in: context)
        }
    }
}
