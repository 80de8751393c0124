import Tessera

/// What the registration template shows: the fields to show again, and their messages.
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

/// What the sign-in template shows.
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

/// What the password change template shows: only messages, never a password.
struct PasswordPage: Sendable {
    var currentError: String?
    var passwordError: String?
    var confirmError: String?

    init(_ state: FormState) {
        currentError = state.error("current")
        passwordError = state.error("password")
        confirmError = state.error("confirm")
    }
}
