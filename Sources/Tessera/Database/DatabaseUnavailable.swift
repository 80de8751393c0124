import TesseraHTTP
public import TesseraViews

/// The database could not be reached, went away mid-request, or did not answer within the
/// request's ``DatabasePatience``: a 503 with the error page and `Retry-After`, not a 500,
/// because nothing is wrong with the request or the code, and the next attempt may succeed.
/// Database adapters throw it in place of their driver's error.
public struct DatabaseUnavailable: LocalizedResponseError, CustomStringConvertible {
    /// Why, in one line, for the log and for an operator at start: the server's own message (a
    /// wrong password, a missing database) or the connection's failure. Never shown to visitors.
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var status: HTTPResponse.Status { .serviceUnavailable }
    public func publicMessage(in language: Language) -> String { Messages.errorDatabase.string(in: language) }
    public var headers: HTTPFields { [.retryAfter: "5"] }
    public var description: String { "database unavailable: \(reason)" }
}
