import Foundation
import Tessera
import TesseraViews

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
    /// Why a passkey sign-in was refused.
    var passkeyError: String?

    init(_ state: FormState) {
        email = state.value("email")
        next = SafeRedirect.localPath(state.value("next"))
        emailError = state.error("email")
        passwordError = state.error("password")
        passkeyError = state.error("passkey")
    }
}

/// What the account page shows: who, their passkeys, and why adding one failed.
struct AccountPage: Sendable {
    struct PasskeyRow: Sendable {
        var addedOn: LocalizedDate
        var lastUsedOn: LocalizedDate?
    }

    var user: User
    var passkeys: [PasskeyRow]
    var passkeyError: String?

    init(user: User, passkeys: [Passkey], passkeyError: String? = nil) {
        self.user = user
        self.passkeys = passkeys.map { PasskeyRow(addedOn: LocalizedDate($0.createdAt), lastUsedOn: $0.lastUsedAt.map(LocalizedDate.init)) }
        self.passkeyError = passkeyError
    }
}

/// The new password and its confirmation, with their messages: what the password change and
/// the reset forms share (`new_password_fields.html`).
struct NewPasswordFields: Sendable {
    var passwordError: String?
    var confirmError: String?

    init(_ state: FormState) {
        passwordError = state.error("password")
        confirmError = state.error("confirm")
    }
}

/// What the password change template shows: only messages, never a password.
struct PasswordPage: Sendable {
    var currentError: String?
    var newPassword: NewPasswordFields

    init(_ state: FormState) {
        currentError = state.error("current")
        newPassword = NewPasswordFields(state)
    }
}

/// What the forgotten-password template shows: the e-mail again, its message, and whether the
/// visitor came from a link that no longer works.
struct ForgotPasswordPage: Sendable {
    var email: String
    var emailError: String?
    var linkDead: Bool

    init(_ state: FormState, linkDead: Bool = false) {
        email = state.value("email")
        emailError = state.error("email")
        self.linkDead = linkDead
    }
}

/// What the reset template shows: where the form goes (the link's own address) and the messages.
struct ResetPasswordPage: Sendable {
    var action: String
    var newPassword: NewPasswordFields

    init(_ state: FormState, token: PasswordResetToken) {
        action = AccountsRoutes.submitPasswordReset.path(token)
        newPassword = NewPasswordFields(state)
    }
}
