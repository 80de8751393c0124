import Foundation
import Tessera
import TesseraViews

public enum AccountsRoutes {
    public static let register = Route<NoParameters>("accounts.register", .get, "/register")
    public static let submitRegistration = Route<NoParameters>("accounts.register.submit", .post, "/register")
    public static let login = Route<NoParameters>("accounts.login", .get, "/login")
    public static let submitLogin = Route<NoParameters>("accounts.login.submit", .post, "/login")
    public static let logout = Route<NoParameters>("accounts.logout", .post, "/logout")
    public static let account = Route<NoParameters>("accounts.account", .get, "/account")

    /// `/login?next=…`, for pages that need a signed-in user.
    public static func login(returningTo path: String) -> String {
        login.path + "?next=" + URLEncoding.queryValue(path)
    }
}

struct RegisterForm: FormModel {
    var name: String
    var email: String
    var password: String

    init(reading form: inout FormReader) {
        name = form.text("name", maxLength: 80)
        email = form.email("email")
        password = form.text("password", maxLength: 200, label: "Password")
        form.check(password.count >= 8 || form.errors["password"] != nil, "password", "Password must be at least 8 characters.")
    }
}

struct LoginForm: FormModel {
    var email: String
    var password: String
    var next: String

    init(reading form: inout FormReader) {
        email = form.text("email", maxLength: 254, label: "E-mail").lowercased()
        password = form.text("password", maxLength: 200, label: "Password")
        next = form.text("next", required: false, maxLength: 2000)
    }
}

/// Accounts' one entry point.
public struct AccountsModule: FeatureModule {
    let accounts: AccountsService

    public init(accounts: AccountsService) {
        self.accounts = accounts
    }

    public func register(in routes: inout RouteTableBuilder) {
        let accounts = self.accounts
        routes.action(AccountsRoutes.register) { _, context in
            Self.page(context, "Create an account", RegisterView.self, RegisterPage(FormState()))
        }
        routes.action(AccountsRoutes.submitRegistration) { _, context in
            switch try context.decodeForm(RegisterForm.self) {
            case .invalid(let state):
                return Self.page(context, "Create an account", RegisterView.self, RegisterPage(state), status: .unprocessableContent)
            case .valid(let form):
                switch try await accounts.register(name: form.name, email: form.email, password: form.password) {
                case .failure(.emailTaken):
                    let state = FormState(values: ["name": form.name, "email": form.email], errors: ["email": "An account with this e-mail already exists."])
                    return Self.page(context, "Create an account", RegisterView.self, RegisterPage(state), status: .unprocessableContent)
                case .success(let user):
                    SignedIn.signIn(user, in: context)
                    return context.redirect(to: "/", flash: "Welcome, \(user.name)! Your account is ready.")
                }
            }
        }
        routes.action(AccountsRoutes.login) { _, context in
            let next = SafeRedirect.localPath(context.request.query["next"])
            return Self.page(context, "Sign in", LoginView.self, LoginPage(FormState(values: ["next": next])))
        }
        routes.action(AccountsRoutes.submitLogin) { _, context in
            switch try context.decodeForm(LoginForm.self) {
            case .invalid(let state):
                return Self.page(context, "Sign in", LoginView.self, LoginPage(state), status: .unprocessableContent)
            case .valid(let form):
                guard let user = try await accounts.authenticate(email: form.email, password: form.password) else {
                    let state = FormState(values: ["email": form.email, "next": form.next], errors: ["password": "The e-mail or the password is wrong."])
                    return Self.page(context, "Sign in", LoginView.self, LoginPage(state), status: .unprocessableContent)
                }
                SignedIn.signIn(user, in: context)
                return context.redirect(to: SafeRedirect.localPath(form.next), flash: "Signed in as \(user.name).")
            }
        }
        routes.action(AccountsRoutes.logout) { _, context in
            SignedIn.signOut(in: context)
            return context.redirect(to: "/", flash: "You are signed out.")
        }
        routes.action(AccountsRoutes.account) { _, context in
            guard let user = try await accounts.currentUser(in: context) else {
                return .redirect(to: AccountsRoutes.login(returningTo: context.request.target))
            }
            return Self.page(context, "Your account", AccountView.self, user)
        }
    }

    static func page<View: HTMLView>(_ context: RequestContext, _ title: String, _ view: View.Type, _ model: View.Model, status: HTTPResponse.Status = .ok) -> Response {
        context.render(Page(title: title, body: context.render(view, model), status: status))
    }
}

/// The form fields to show again.
struct RegisterPage: Sendable {
    var name: String
    var email: String
    var nameError: String?
    var emailError: String?
    var passwordError: String?

    init(_ state: FormState) {
        name = state.value("name")
        email = state.value("email")
        nameError = state.error("name")
        emailError = state.error("email")
        passwordError = state.error("password")
    }
}

struct LoginPage: Sendable {
    var email: String
    var next: String
    var emailError: String?
    var passwordError: String?

    init(_ state: FormState) {
        email = state.value("email")
        next = SafeRedirect.localPath(state.value("next"))
        emailError = state.error("email")
        passwordError = state.error("password")
    }
}

/// Where a sign-in may send the visitor back to: a path on this site, never another site.
/// `//evil.example` and `/\\evil.example` are protocol-relative URLs that browsers follow off-site.
enum SafeRedirect {
    static func localPath(_ candidate: String?) -> String {
        guard let candidate, candidate.hasPrefix("/"), !candidate.hasPrefix("//"), !candidate.hasPrefix("/\\"),
              !candidate.contains("\\"), candidate.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }),
              candidate.utf8.count <= 2000
        else { return "/" }
        return candidate
    }
}
