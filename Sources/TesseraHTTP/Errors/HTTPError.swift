import HTTPTypes

/// A status and a message for the visitor: the error to throw when nothing more specific fits.
///
/// Throw it from a handler to get that status; anything thrown that is not an
/// ``HTTPResponseError`` becomes a 500 whose details stay in the log.
public struct HTTPError: HTTPResponseError, Equatable {
    /// The status of the answer.
    public var status: HTTPResponse.Status
    /// Shown to the client, so it must never carry internals.
    public var message: String
    /// Fields the answer must carry, such as `Allow` for a 405.
    public var headers: HTTPFields

    /// An error answered with `status`; the message defaults to the reason phrase.
    public init(_ status: HTTPResponse.Status, message: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message ?? status.reasonPhrase
        self.headers = headers
    }

    /// The message, shown as it is.
    public var publicMessage: String { message }
}
