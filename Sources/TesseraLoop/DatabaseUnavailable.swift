/// The database could not be reached, went away mid-request, or did not answer within the
/// request's patience. Here, beside the loops, so that a database driver on the loops can throw
/// it without knowing HTTP; the framework answers it with a 503, the error page and
/// `Retry-After` (its `LocalizedResponseError` conformance), not a 500, because nothing is wrong
/// with the request or the code, and the next attempt may succeed. Database adapters throw it
/// in place of their driver's error.
public struct DatabaseUnavailable: Error, Sendable, CustomStringConvertible {
    /// Why, in one line, for the log and for an operator at start: the server's own message (a
    /// wrong password, a missing database) or the connection's failure. Never shown to visitors.
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "database unavailable: \(reason)" }
}
