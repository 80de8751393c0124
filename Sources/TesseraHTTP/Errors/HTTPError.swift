import HTTPTypes
import TesseraViews

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

    /// The message's words in every language, when it came from a catalog.
    private let text: LocalizedText?

    /// An error answered with `status`; the message defaults to the reason phrase.
    public init(_ status: HTTPResponse.Status, message: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message ?? status.reasonPhrase
        self.headers = headers
        self.text = nil
    }

    /// An error answered with `status` whose message is a catalog's
    /// (`Messages.noSuchOrder.text(["id": id])`): its page is in the visitor's language.
    public init(_ status: HTTPResponse.Status, _ text: LocalizedText, headers: HTTPFields = [:]) {
        self.status = status
        self.message = text.string(in: .english)
        self.headers = headers
        self.text = text
    }

    /// The message, shown as it is.
    public var publicMessage: String { message }

    /// The catalog's words in `language`, or the message.
    public func publicMessage(in language: Language) -> String {
        text?.string(in: language) ?? message
    }

    /// The same status, message and fields.
    public static func == (left: HTTPError, right: HTTPError) -> Bool {
        left.status == right.status && left.message == right.message && left.headers == right.headers
    }
}
