import TesseraHTTP
public import TesseraViews

/// A 503 with the error page and `Retry-After`: the database may answer the next attempt.
extension DatabaseUnavailable: LocalizedResponseError {
    public var status: HTTPResponse.Status { .serviceUnavailable }
    public func publicMessage(in language: Language) -> String { Messages.errorDatabase.string(in: language) }
    public var headers: HTTPFields { [.retryAfter: "5"] }
}
