import Tessera

/// `/account`: who is signed in; a visitor is sent to sign in first.
struct AccountPageController: PageController {
    let accounts: AccountsService

    func load(_ context: RequestContext) async throws -> User {
        guard let shopper = context.shopper, let user = try await accounts.user(id: shopper.id) else {
            throw Redirect(to: AccountsRoutes.login(returningTo: context.request.target))
        }
        return user
    }

    func render(_ user: User, in context: RequestContext) -> Page {
        Page(title: "Your account", body: context.render(AccountView.self, user))
    }
}
