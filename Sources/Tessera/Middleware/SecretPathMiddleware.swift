public import TesseraHTTP

/// For routes whose path holds a secret (a password reset link's token): the access log shows
/// the route's pattern (`/password/reset/{token}`) instead of the path, so logs hold no live
/// secret. Put it on the routes' group.
public struct SecretPathMiddleware: Middleware {
    public init() {}

    /// Error pages too: a failed request is logged as well.
    public var runsForRejectedRequests: Bool { true }

    public func after(_ response: inout Response, for context: RequestContext) {
        response.loggedTarget = context.route.map { "\($0.entry.pattern)" } ?? "(secret)"
    }
}
