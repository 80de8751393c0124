public import Tessera

/// Accounts' routes, for links from anywhere.
public enum AccountsRoutes {
    /// `/register`: the registration form.
    public static let register = Route<NoParameters>("accounts.register", .get, "/register")
    /// Creates the account and signs it in, or shows the form again with its errors (422).
    public static let submitRegistration = Route<NoParameters>("accounts.register.submit", .post, "/register")
    /// `/login`: the sign-in form; `?next=` names the local page to return to.
    public static let login = Route<NoParameters>("accounts.login", .get, "/login")
    /// Signs in, throttled per account and per address; a wrong password is the form again (422).
    public static let submitLogin = Route<NoParameters>("accounts.login.submit", .post, "/login")
    /// Signs out: a post, so that a link or a prefetch never signs anyone out; the session's end is recorded on the server.
    public static let logout = Route<NoParameters>("accounts.logout", .post, "/logout")
    /// `/account`: who is signed in, for that shopper only.
    public static let account = Route<NoParameters>("accounts.account", .get, "/account")
    /// `/account/password`: the password form.
    public static let changePassword = Route<NoParameters>("accounts.password", .get, "/account/password")
    /// Changes the password and ends every other session of the account.
    public static let submitPasswordChange = Route<NoParameters>("accounts.password.submit", .post, "/account/password")
    /// `/password/forgot`: asks for the e-mail to mail a reset link to.
    public static let forgotPassword = Route<NoParameters>("accounts.password.forgot", .get, "/password/forgot")
    /// Mails a reset link if an account has the e-mail, and says the same either way; throttled
    /// per client and per e-mail (429).
    public static let submitForgotPassword = Route<NoParameters>("accounts.password.forgot.submit", .post, "/password/forgot")
    /// `/password/reset/{token}`: the new password's form, while the mailed link works.
    public static let resetPassword = Route<PasswordResetToken>("accounts.password.reset", .get, "/password/reset/{token}")
    /// Sets the new password, once per link, and ends every session of the account.
    public static let submitPasswordReset = Route<PasswordResetToken>("accounts.password.reset.submit", .post, "/password/reset/{token}")
    /// The options for adding a passkey (JSON), with a new challenge bound to the session; the
    /// account page's script asks for them.
    public static let passkeyRegistrationOptions = Route<NoParameters>("accounts.passkeys.options", .post, "/account/passkeys/options")
    /// Adds the passkey the browser made to the signed-in account.
    public static let addPasskey = Route<NoParameters>("accounts.passkeys.add", .post, "/account/passkeys")
    /// The options for signing in with a passkey (JSON); the sign-in page's script asks for them.
    public static let passkeySignInOptions = Route<NoParameters>("accounts.login.passkey.options", .post, "/login/passkey/options")
    /// Signs in with the passkey's answer, or shows the sign-in page again with why not (422).
    public static let submitPasskeySignIn = Route<NoParameters>("accounts.login.passkey", .post, "/login/passkey")

    /// `/login?next=…`, for pages that need a signed-in user.
    public static func login(returningTo path: String) -> String {
        login.path + "?next=" + URLEncoding.queryValue(path)
    }
}
