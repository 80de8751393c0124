import Tessera

/// The forms that change who is signed in: register, sign in, sign out. Each ends in a redirect
/// (Post/Redirect/Get); a form with errors is shown again by its page controller, as a 422.
struct SignInActions {
    let accounts: AccountsService

    func register(in routes: inout RouterBuilder) {
        let accounts = self.accounts
        routes.action(AccountsRoutes.submitRegistration) { _, context in
            switch try context.decodeForm(RegisterForm.self) {
            case .invalid(let state):
                return try await context.render(RegisterPageController(form: state))
            case .valid(let form):
                do {
                    let user = try await accounts.register(name: form.name, email: form.email, password: form.password)
                    ShopperSession.signIn(user, in: context)
                    return context.redirect(to: "/", flash: "Welcome, \(user.name)! Your account is ready.")
                } catch let refusal as RegistrationError {
                    let state = FormState(values: ["name": form.name, "email": form.email], errors: ["email": refusal.publicMessage])
                    return try await context.render(RegisterPageController(form: state))
                }
            }
        }
        routes.action(AccountsRoutes.submitLogin) { _, context in
            switch try context.decodeForm(LoginForm.self) {
            case .invalid(let state):
                return try await context.render(LoginPageController(form: state))
            case .valid(let form):
                do {
                    let user = try await accounts.authenticate(email: form.email, password: form.password)
                    ShopperSession.signIn(user, in: context)
                    return context.redirect(to: SafeRedirect.localPath(form.next), flash: "Signed in as \(user.name).")
                } catch let refusal as SignInError {
                    let state = FormState(values: ["email": form.email, "next": form.next], errors: ["password": refusal.publicMessage])
                    return try await context.render(LoginPageController(form: state))
                }
            }
        }
        routes.action(AccountsRoutes.logout) { _, context in
            ShopperSession.signOut(in: context)
            return context.redirect(to: "/", flash: "You are signed out.")
        }
    }
}
