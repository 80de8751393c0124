import PostgresNIO
import TesseraHTTP

/// The database could not be reached, or went away mid-request: a 503 with the error page and
/// `Retry-After`, not a 500, because nothing is wrong with the request or the code, and the
/// next attempt may succeed. ``PostgresConnections`` throws it in place of the driver's error.
public struct DatabaseUnavailable: HTTPResponseError, CustomStringConvertible {
    /// Why, in one line, for the log and for an operator at start: the server's own message (a
    /// wrong password, a missing database) or the connection's failure. Never shown to visitors.
    public let reason: String

    init(reason: String) {
        self.reason = reason
    }

    /// The database failure behind `error`, summed up in one line.
    public init(_ error: any Error) {
        if let known = error as? DatabaseUnavailable {
            reason = known.reason
        } else if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                reason = message
            } else if let underlying = error.underlying {
                reason = String(describing: underlying)
            } else {
                reason = "\(error.code)"
            }
        } else {
            reason = String(describing: error)
        }
    }

    public var status: HTTPResponse.Status { .serviceUnavailable }
    public var publicMessage: String { "The shop's database is not answering. Please try again in a moment." }
    public var headers: HTTPFields { [.retryAfter: "5"] }
    public var description: String { "database unavailable: \(reason)" }
}
