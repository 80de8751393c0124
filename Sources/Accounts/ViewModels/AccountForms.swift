import Tessera
import TesseraViews

/// The registration form, read and checked (the V→VM→C flow of seed 004).
struct RegisterForm: FormModel {
    var name: String
    var email: String
    var password: String

    init(reading form: inout FormReader) {
        name = form.text("name", maxLength: 80, label: Messages.commonName.string(in: form.language))
        email = form.email("email")
        password = form.secret("password", label: Messages.commonPassword.string(in: form.language))
        form.check(password.count >= 8 || form.errors["password"] != nil, "password", Messages.formPasswordShort.string(in: form.language))
    }
}

/// The sign-in form; `next` is where to go afterwards, checked by ``SafeRedirect``.
struct LoginForm: FormModel {
    var email: String
    var password: String
    var next: String

    init(reading form: inout FormReader) {
        email = form.text("email", maxLength: 254, label: Messages.commonEmail.string(in: form.language)).lowercased()
        password = form.secret("password", label: Messages.commonPassword.string(in: form.language))
        next = form.text("next", required: false, maxLength: 2000)
    }
}

/// The password change form: the current password proves it is the owner, not a borrowed session.
struct PasswordChangeForm: FormModel {
    var current: String
    var password: String

    init(reading form: inout FormReader) {
        current = form.secret("current", label: Messages.passwordCurrent.string(in: form.language))
        password = form.secret("password", label: Messages.passwordNew.string(in: form.language))
        let confirmation = form.secret("confirm", label: Messages.passwordAgain.string(in: form.language))
        form.check(password.count >= 8 || form.errors["password"] != nil, "password", Messages.formNewPasswordShort.string(in: form.language))
        form.check(confirmation == password || form.errors["confirm"] != nil, "confirm", Messages.formPasswordsDiffer.string(in: form.language))
    }
}

/// The e-mail a reset link is asked for.
struct ForgotPasswordForm: FormModel {
    var email: String

    init(reading form: inout FormReader) {
        email = form.email("email").lowercased()
    }
}

/// A new password from a reset link: no current password, since the link proves the mailbox.
struct PasswordResetForm: FormModel {
    var password: String

    init(reading form: inout FormReader) {
        password = form.secret("password", label: Messages.passwordNew.string(in: form.language))
        let confirmation = form.secret("confirm", label: Messages.passwordAgain.string(in: form.language))
        form.check(password.count >= 8 || form.errors["password"] != nil, "password", Messages.formNewPasswordShort.string(in: form.language))
        form.check(confirmation == password || form.errors["confirm"] != nil, "confirm", Messages.formPasswordsDiffer.string(in: form.language))
    }
}

/// A new passkey, as the account page's script fills it in from `navigator.credentials.create()`.
struct PasskeyRegistrationForm: FormModel {
    var clientDataJSON: String
    var attestationObject: String

    init(reading form: inout FormReader) {
        clientDataJSON = form.text("clientDataJSON", maxLength: 8_000, label: "The passkey's client data")
        attestationObject = form.text("attestationObject", maxLength: 16_000, label: "The passkey's attestation")
    }
}

/// A passkey sign-in, as the sign-in page's script fills it in from `navigator.credentials.get()`.
struct PasskeySignInForm: FormModel {
    var credentialID: String
    var clientDataJSON: String
    var authenticatorData: String
    var signature: String
    var userHandle: String
    var next: String

    init(reading form: inout FormReader) {
        credentialID = form.text("credentialID", maxLength: 2_000, label: "The passkey")
        clientDataJSON = form.text("clientDataJSON", maxLength: 8_000, label: "The passkey's client data")
        authenticatorData = form.text("authenticatorData", maxLength: 8_000, label: "The passkey's authenticator data")
        signature = form.text("signature", maxLength: 400, label: "The passkey's signature")
        userHandle = form.text("userHandle", required: false, maxLength: 200)
        next = form.text("next", required: false, maxLength: 2000)
    }
}
