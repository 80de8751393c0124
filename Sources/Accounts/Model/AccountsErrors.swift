public import Tessera
public import TesseraViews

/// Registration refused: the form is shown again with the reason (422).
public enum RegistrationError: LocalizedResponseError, Equatable {
    /// The e-mail already has an account.
    case emailTaken

    public var status: HTTPResponse.Status { .unprocessableContent }

    /// What the form says, in `language`.
    public func publicMessage(in language: Language) -> String { Messages.errorEmailTaken.string(in: language) }
}

/// Sign-in refused. Which of the e-mail and the password was wrong is not said.
public enum SignInError: LocalizedResponseError, Equatable {
    /// No account has this e-mail and password together.
    case wrongCredentials

    public var status: HTTPResponse.Status { .unprocessableContent }

    /// What the form says, in `language`.
    public func publicMessage(in language: Language) -> String { Messages.errorWrongCredentials.string(in: language) }
}

/// Too many sign-in attempts for this account or from this address: a 429 page that says when
/// to try again, with `Retry-After` for clients that read it.
public struct SignInThrottled: LocalizedResponseError, Equatable {
    /// Whole seconds until the next attempt is accepted, at least 1.
    public let retryAfterSeconds: Int64

    init(retryAfter wait: Duration) {
        let (seconds, attoseconds) = wait.components
        retryAfterSeconds = max(1, seconds + (attoseconds > 0 ? 1 : 0))
    }

    public var status: HTTPResponse.Status { .tooManyRequests }

    /// How long to wait, in `language`: seconds under two minutes, else whole minutes.
    public func publicMessage(in language: Language) -> String {
        retryAfterSeconds < 120
            ? Messages.errorThrottledSeconds.string(in: language, count: Int(retryAfterSeconds))
            : Messages.errorThrottledMinutes.string(in: language, count: Int((retryAfterSeconds + 59) / 60))
    }
    public var headers: HTTPFields { [.retryAfter: String(retryAfterSeconds)] }
}

/// A password change refused because the current password was wrong (422, the form again).
public enum PasswordChangeError: LocalizedResponseError, Equatable {
    /// The current password did not verify.
    case wrongCurrentPassword

    public var status: HTTPResponse.Status { .unprocessableContent }

    /// What the form says, in `language`.
    public func publicMessage(in language: Language) -> String { Messages.errorWrongCurrentPassword.string(in: language) }
}

/// A reset link asked for where the server cannot name its own site safely: no `PUBLIC_URL`, and
/// a request that did not come to loopback (503, and an error in the log for the operator).
public struct ResetLinksNeedPublicURL: LocalizedResponseError, Equatable {
    public var status: HTTPResponse.Status { .serviceUnavailable }

    /// What the page says, in `language`.
    public func publicMessage(in language: Language) -> String { Messages.errorResetNeedsSite.string(in: language) }
}
