import HTTPTypes

/// A status and a message for the visitor: the error to throw when nothing more specific fits.
///
/// Throw it from a handler to get that status; anything thrown that is not an
/// ``HTTPResponseError`` becomes a 500 whose details stay in the log.
public struct HTTPError: HTTPResponseError, Equatable {
    /// The status of the answer.
    public var status: HTTPResponse.Status
    /// Shown to the client, so it must never carry internals.
    public let message: String
    /// Fields the answer must carry, such as `Allow` for a 405.
    public var headers: HTTPFields

    /// The message's words for the framework to say in the visitor's language: a catalog's, or
    /// a ``ServerRefusal``; `nil` when the message is the same in every language.
    public let words: (any TranslatedWords)?

    /// An error answered with `status`; the message defaults to the reason phrase.
    public init(_ status: HTTPResponse.Status, message: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message ?? status.reasonPhrase
        self.headers = headers
        self.words = nil
    }

    /// An error answered with `status` whose message is `words`: in English here, in the
    /// visitor's language on the framework's error pages.
    public init(_ status: HTTPResponse.Status, words: some TranslatedWords, headers: HTTPFields = [:]) {
        self.status = status
        self.message = words.english
        self.headers = headers
        self.words = words
    }

    /// The message, shown as it is.
    public var publicMessage: String { message }

    /// The same status, message and fields.
    public static func == (left: HTTPError, right: HTTPError) -> Bool {
        left.status == right.status && left.message == right.message && left.headers == right.headers
    }
}
