import Tessera

/// Registration refused: the form is shown again with the reason (422).
public enum RegistrationError: HTTPResponseError, Equatable {
    case emailTaken

    public var status: HTTPResponse.Status { .unprocessableContent }
    public var publicMessage: String { "An account with this e-mail already exists." }
}

/// Sign-in refused. Which of the e-mail and the password was wrong is not said.
public enum SignInError: HTTPResponseError, Equatable {
    case wrongCredentials

    public var status: HTTPResponse.Status { .unprocessableContent }
    public var publicMessage: String { "The e-mail or the password is wrong." }
}
