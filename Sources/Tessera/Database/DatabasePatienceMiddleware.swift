/// Gives every request a patience of `limit` for its database (``DatabaseBudget``): adapters
/// then wait no longer than it allows, all the request's calls together, and past it the request
/// is a 503 with `Retry-After`. A stalled database then costs a visitor about `limit`, not the
/// stall's length.
///
/// It only sets a duration in the request's context: the count of waiting lives in the context's
/// shared core, so a request that never waits pays nothing. Put it before every step that may
/// wait for the database.
public struct DatabasePatienceMiddleware: Middleware {
    /// The most a request waits for its database, all its calls together.
    public let limit: Duration

    /// A step that gives each request `limit` of patience.
    public init(limit: Duration) {
        self.limit = limit
    }

    /// Yes: the answer to a request the app did not take may wait for the database too (its
    /// session, for the error page), and must not wait longer than any other.
    public var runsForRejectedRequests: Bool { true }

    public func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
        context.databaseBudget.patience = limit
        return .next
    }
}
