public import Tessera

/// Accounts' one entry point: registration, sign-in (password or passkey) and sign-out, the
/// account page with its passkeys and its password change, password resets by mail, and the
/// service that keeps this instance's copy of the session ends current (see ``ShopperMiddleware``).
///
/// The composition root also puts ``ShopperMiddleware`` in the chain, which tells every other
/// module who is signed in (`context.shopper`).
public struct AccountsModule: FeatureModule {
    let accounts: AccountsService
    let passkeys: PasskeyService
    let passwordResets: PasswordResetService
    let signInObservers: [any SignInObserver]
    let registrationLimit: RateLimitRule
    let passwordResetLimit: RateLimitRule

    /// Registrations one address may make: enough for a household, too few for a bot.
    public static let defaultRegistrationLimit = RateLimitRule(limit: 10, per: .seconds(3600))

    /// Reset links one client address may ask for: a few forgotten passwords, not a mail cannon.
    public static let defaultPasswordResetLimit = RateLimitRule(limit: 10, per: .seconds(3600))

    /// Reset links one e-mail may get, whoever asks: enough to retry, too few to flood a mailbox.
    public static let passwordResetLimitPerAddress = RateLimitRule(limit: 3, per: .seconds(3600))

    /// - Parameters:
    ///   - accounts: the accounts' service.
    ///   - passkeys: adding passkeys and signing in with them.
    ///   - passwordResets: reset links by mail.
    ///   - signInObservers: what other modules do as a shopper signs in.
    ///   - registrationLimit: registrations per client address, counted in the app's rate-limit store.
    ///   - passwordResetLimit: reset links asked for per client address, counted there too.
    public init(
        accounts: AccountsService, passkeys: PasskeyService, passwordResets: PasswordResetService, signInObservers: [any SignInObserver] = [],
        registrationLimit: RateLimitRule = defaultRegistrationLimit, passwordResetLimit: RateLimitRule = defaultPasswordResetLimit
    ) {
        self.accounts = accounts
        self.passkeys = passkeys
        self.passwordResets = passwordResets
        self.registrationLimit = registrationLimit
        self.passwordResetLimit = passwordResetLimit
        self.signInObservers = signInObservers
    }

    /// Registers registration, sign-in, sign-out, the account pages and password resets, and the
    /// follower that keeps ended sessions current.
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
        let resets = passwordResets
        app.routes.page(AccountsRoutes.forgotPassword) { _, _ in ForgotPasswordPageController(form: FormState()) }
        // The link's token is in the path: logs and traces show the route's pattern instead.
        app.routes.secret { routes in
            routes.page(AccountsRoutes.resetPassword) { token, _ in ResetPasswordPageController(resets: resets, token: token, form: FormState()) }
        }
        PasswordResetActions(
            resets: resets, clientLimit: app.rateLimit("password-reset", passwordResetLimit),
            addressLimit: app.rateLimit("password-reset-email", Self.passwordResetLimitPerAddress, by: .countedByRoute)
        ).register(in: &app.routes)
    }
}
