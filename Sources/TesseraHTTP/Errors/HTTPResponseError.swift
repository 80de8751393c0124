import HTTPTypes

/// An error that knows how it is answered over HTTP: the one error protocol of Tessera.
///
/// Adopt it once, in the module that owns the error (a catalog's "no such product" is a 404, an
/// order state machine's refusal a 409), and throw the error as it is: no call site maps domain
/// errors to statuses by hand. Whatever does not adopt it is the server's fault, a 500 whose
/// details stay in the log.
public protocol HTTPResponseError: Error, Sendable {
    /// The status of the answer.
    var status: HTTPResponse.Status { get }
    /// What the visitor is told. It is shown as it is, so it must never carry internals. In
    /// English: logs, JSON clients, and pages in a language the error has no words for; the
    /// framework's `LocalizedResponseError` says it in the visitor's language too.
    var publicMessage: String { get }
    /// Fields the answer must carry, such as `Allow` for a 405 or `Location` for a redirect.
    var headers: HTTPFields { get }
}

extension HTTPResponseError {
    /// No extra fields, unless the error says otherwise.
    public var headers: HTTPFields { [:] }
}

/// The one place where anything thrown while answering a request becomes an answer.
///
/// Both the server's last-resort handler and the framework's error step go through it, so the
/// two can never disagree on what a cancellation or an unknown error means.
public enum ThrownError {
    /// The answer for `error`: itself when it knows its answer; a 503 for a cancelled request
    /// (the server is stopping, or the client left); otherwise a 500, whose details are logged by
    /// the caller and shown only when `revealingDetails` (development).
    public static func answer(for error: any Error, revealingDetails: Bool = false) -> any HTTPResponseError {
        switch error {
        case let known as any HTTPResponseError:
            return known
        case is CancellationError:
            return HTTPError(.serviceUnavailable, message: "The server is busy or shutting down. Please try again.")
        default:
            return HTTPError(.internalServerError, message: revealingDetails ? String(reflecting: error) : "Something went wrong on our side.")
        }
    }

    /// Whether `error` is a fault of the server, worth an error in the log.
    public static func isServerFault(_ error: any Error) -> Bool {
        !(error is any HTTPResponseError) && !(error is CancellationError)
    }
}
