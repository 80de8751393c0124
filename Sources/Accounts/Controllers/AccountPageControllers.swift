import Tessera

/// `/register`: the registration form, empty or sent back with its errors (422).
struct RegisterPageController: PageController {
    let form: FormState

    func load(_ context: RequestContext) async throws -> RegisterPage { RegisterPage(form) }

    func render(_ page: RegisterPage, in context: RequestContext) -> Page {
        Page(title: "Create an account", body: context.render(RegisterView.self, page), status: form.isValid ? .ok : .unprocessableContent)
    }
}

/// `/login`: the sign-in form, empty or sent back with its errors (422).
struct LoginPageController: PageController {
    let form: FormState

    func load(_ context: RequestContext) async throws -> LoginPage { LoginPage(form) }

    func render(_ page: LoginPage, in context: RequestContext) -> Page {
        Page(title: "Sign in", body: context.render(LoginView.self, page), status: form.isValid ? .ok : .unprocessableContent)
    }
}

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
