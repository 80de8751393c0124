import Tessera

/// Accounts' routes, for links from anywhere.
public enum AccountsRoutes {
    public static let register = Route<NoParameters>("accounts.register", .get, "/register")
    public static let submitRegistration = Route<NoParameters>("accounts.register.submit", .post, "/register")
    public static let login = Route<NoParameters>("accounts.login", .get, "/login")
    public static let submitLogin = Route<NoParameters>("accounts.login.submit", .post, "/login")
    public static let logout = Route<NoParameters>("accounts.logout", .post, "/logout")
    public static let account = Route<NoParameters>("accounts.account", .get, "/account")
    public static let changePassword = Route<NoParameters>("accounts.password", .get, "/account/password")
    public static let submitPasswordChange = Route<NoParameters>("accounts.password.submit", .post, "/account/password")

    /// `/login?next=…`, for pages that need a signed-in user.
    public static func login(returningTo path: String) -> String {
        login.path + "?next=" + URLEncoding.queryValue(path)
    }
}
