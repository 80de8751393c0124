import Tessera

/// Accounts' one entry point: registration, sign-in and sign-out, the account page and its
/// password change, and the service that keeps this instance's copy of the session ends
/// current (see ``ShopperMiddleware``).
///
/// The composition root also puts ``ShopperMiddleware`` in the chain, which tells every other
/// module who is signed in (`context.shopper`).
public struct AccountsModule: FeatureModule {
    let accounts: AccountsService
    let signInObservers: [any SignInObserver]

    /// - Parameters:
    ///   - accounts: the accounts' service.
    ///   - signInObservers: what other modules do as a shopper signs in.
    public init(accounts: AccountsService, signInObservers: [any SignInObserver] = []) {
        self.accounts = accounts
        self.signInObservers = signInObservers
    }

    /// Registers registration, sign-in, sign-out and the account pages, and the follower that keeps ended sessions current.
    public func register(in app: inout ApplicationBuilder) {
        let accounts = self.accounts
        app.services.append(SessionEndsFollower(accounts: accounts))
        app.routes.page(AccountsRoutes.register) { _, _ in RegisterPageController(form: FormState()) }
        app.routes.page(AccountsRoutes.login) { _, context in
            LoginPageController(form: FormState(values: ["next": SafeRedirect.localPath(context.request.query["next"])]))
        }
        app.routes.page(AccountsRoutes.account) { _, _ in AccountPageController(accounts: accounts) }
        app.routes.page(AccountsRoutes.changePassword) { _, _ in PasswordPageController(form: FormState()) }
        SignInActions(accounts: accounts, observers: signInObservers).register(in: &app.routes)
    }
}
