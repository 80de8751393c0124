/// Gives every request that waits a ``DatabasePatience`` of `limit`, bound as a task-local value
/// around its work: database adapters then wait no longer than it allows, all the request's
/// calls together, and past it the request is a 503 with `Retry-After`. A stalled database then
/// costs a visitor about `limit`, not the stall's length.
///
/// Only a request that waits makes one (`DatabasePatience.call` is async): one answered on the
/// server's thread pays nothing. Put it before every step that may wait for the database.
public struct DatabasePatienceMiddleware: SurroundingMiddleware {
    /// The most a request waits for its database, all its calls together.
    public let limit: Duration

    /// A step that gives each waiting request `limit` of patience.
    public init(limit: Duration) {
        self.limit = limit
    }

    /// Yes: the answer to a request the app did not take may wait for the database too (its
    /// session, for the error page), and must not wait longer than any other.
    public var runsForRejectedRequests: Bool { true }

    public func surround(_ context: inout RequestContext, _ rest: (inout RequestContext) -> NowOrLater<Void, Response>) -> NowOrLater<Void, Response>
    {
        let answer = rest(&context)
        guard case .later = answer else { return answer }
        let limit = limit
        return .later { _ in try await DatabasePatience.$current.withValue(DatabasePatience(limit: limit)) { try await answer.value() } }
    }
}
