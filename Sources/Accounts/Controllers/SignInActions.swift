import Logging
import Tessera
import TesseraViews

/// The forms that change who is signed in: register, sign in, sign out, change the password.
/// Each ends in a redirect (Post/Redirect/Get); a form with errors is shown again by its page
/// controller, as a 422. Too many sign-in attempts are a 429 page (``SignInThrottled``).
/// Each outcome is logged, with the user's id and never the e-mail or password, so an operator
/// can follow sign-ins, refusals and password changes (OWASP ASVS, security logging).
struct SignInActions {
    let accounts: AccountsService
    let steps: SignInSteps
    /// Registrations per address: a 429 page past it, before the form is read.
    let registrationLimit: RateLimit

    func register(in routes: inout RouterBuilder) {
        let accounts = self.accounts
        let signIn = { @Sendable [steps] (user: User, context: RequestContext) async in await steps.signIn(user, in: context) }
        routes.group(registrationLimit) { routes in
            routes.action(AccountsRoutes.submitRegistration) { _, context in
                switch try context.decodeForm(RegisterForm.self) {
                case .invalid(let state):
                    return try await context.render(RegisterPageController(form: state))
                case .valid(let form):
                    do {
                        let user = try await accounts.register(
                            name: form.name, email: form.email, password: form.password, within: context.databaseBudget)
                        await signIn(user, context)
                        context.logger.info("account registered", metadata: ["user_id": "\(user.id)"])
                        return context.redirect(to: "/", flash: context.localized(Messages.registerWelcome, ["name": user.name]))
                    } catch let refusal as RegistrationError {
                        let state = FormState(
                            values: ["name": form.name, "email": form.email], errors: ["email": refusal.publicMessage(in: context.language)])
                        return try await context.render(RegisterPageController(form: state))
                    }
                }
            }
        }
        routes.action(AccountsRoutes.submitLogin) { _, context in
            switch try context.decodeForm(LoginForm.self) {
            case .invalid(let state):
                return try await context.render(LoginPageController(form: state))
            case .valid(let form):
                do {
                    let user: User
                    do {
                        user = try await accounts.authenticate(
                            email: form.email, password: form.password, from: context.request.clientAddress, within: context.databaseBudget)
                    } catch let refusal as SignInThrottled {
                        context.logger.notice(
                            "sign-in throttled",
                            metadata: [
                                "client": "\(context.request.clientAddress.map { "\($0)" } ?? "-")", "retry_after": "\(refusal.retryAfterSeconds)",
                            ])
                        throw refusal
                    }
                    await signIn(user, context)
                    context.logger.info("signed in", metadata: ["user_id": "\(user.id)"])
                    return context.redirect(
                        to: SafeRedirect.localPath(form.next), flash: context.localized(Messages.loginSignedIn, ["name": user.name]))
                } catch let refusal as SignInError {
                    context.logger.notice("sign-in refused", metadata: ["client": "\(context.request.clientAddress.map { "\($0)" } ?? "-")"])
                    let state = FormState(
                        values: ["email": form.email, "next": form.next], errors: ["password": refusal.publicMessage(in: context.language)])
                    return try await context.render(LoginPageController(form: state))
                }
            }
        }
        routes.action(AccountsRoutes.submitPasswordChange) { _, context in
            guard let shopper = context.shopper else {
                return context.redirect(to: AccountsRoutes.login(returningTo: AccountsRoutes.changePassword.path))
            }
            switch try context.decodeForm(PasswordChangeForm.self) {
            case .invalid(let state):
                return try await context.render(PasswordPageController(form: state))
            case .valid(let form):
                do {
                    _ = try await accounts.changePassword(
                        userID: shopper.id, current: form.current, new: form.password, from: context.request.clientAddress,
                        within: context.databaseBudget)
                } catch let refusal as PasswordChangeError {
                    context.logger.notice("password change refused", metadata: ["user_id": "\(shopper.id)"])
                    return try await context.render(
                        PasswordPageController(form: FormState(values: [:], errors: ["current": refusal.publicMessage(in: context.language)])))
                }
                // Every session of the user just ended, this one too: it goes on under a new id.
                guard let user = try await accounts.user(id: shopper.id, within: context.databaseBudget) else { throw SignInError.wrongCredentials }
                await signIn(user, context)
                context.logger.notice("password changed; every other session ended", metadata: ["user_id": "\(user.id)"])
                return context.redirect(to: AccountsRoutes.account.path, flash: context.localized(Messages.passwordChanged))
            }
        }
        routes.action(AccountsRoutes.logout) { _, context in
            try await ShopperSession.signOut(in: context, accounts: accounts)
            if let shopper = context.shopper { context.logger.info("signed out", metadata: ["user_id": "\(shopper.id)"]) }
            return context.redirect(to: "/", flash: context.localized(Messages.logoutDone))
        }
    }
}
