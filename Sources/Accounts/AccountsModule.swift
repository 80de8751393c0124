public import Tessera

/// Accounts' one entry point: registration, sign-in (password or passkey) and sign-out, the
/// account page with its passkeys and its password change, and the service that keeps this instance's copy of the session ends
/// current (see ``ShopperMiddleware``).
///
/// The composition root also puts ``ShopperMiddleware`` in the chain, which tells every other
/// module who is signed in (`context.shopper`).
public struct AccountsModule: FeatureModule {
    let accounts: AccountsService
    let passkeys: PasskeyService
    let signInObservers: [any SignInObserver]
    let registrationLimit: RateLimitRule

    /// Registrations one address may make: enough for a household, too few for a bot.
    public static let defaultRegistrationLimit = RateLimitRule(limit: 10, per: .seconds(3600))

    /// - Parameters:
    ///   - accounts: the accounts' service.
    ///   - passkeys: adding passkeys and signing in with them.
    ///   - signInObservers: what other modules do as a shopper signs in.
    ///   - registrationLimit: registrations per client address, counted in the app's rate-limit store.
    public init(
        accounts: AccountsService, passkeys: PasskeyService, signInObservers: [any SignInObserver] = [],
        registrationLimit: RateLimitRule = defaultRegistrationLimit
    ) {
        self.accounts = accounts
        self.passkeys = passkeys
        self.registrationLimit = registrationLimit
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
        let passkeys = self.passkeys
        app.routes.page(AccountsRoutes.account) { _, _ in AccountPageController(accounts: accounts, passkeys: passkeys) }
        app.routes.page(AccountsRoutes.changePassword) { _, _ in PasswordPageController(form: FormState()) }
        let steps = SignInSteps(observers: signInObservers)
        SignInActions(accounts: accounts, steps: steps, registrationLimit: app.rateLimit("registration", registrationLimit)).register(in: &app.routes)
        PasskeyActions(passkeys: passkeys, accounts: accounts, steps: steps).register(in: &app.routes)
    }
}
