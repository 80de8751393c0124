import HTTPTypes

/// An error that already knows how it should be answered.
///
/// Throw it from a handler to get that status; anything else thrown becomes a 500 whose
/// details stay in the log. `message` is shown to the client, so it must never carry internals.
public struct HTTPError: Error, Sendable, Equatable {
    public var status: HTTPResponse.Status
    public var message: String
    /// Headers the answer must carry, such as `Allow` for a 405.
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, message: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message ?? status.reasonPhrase
        self.headers = headers
    }
}
