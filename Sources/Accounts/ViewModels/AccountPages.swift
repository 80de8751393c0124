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
