/// What a route group guarantees its handlers, such as a signed-in shopper or a member of staff,
/// checked once per request before the handler, which gets the value as a parameter,
/// non-optional (``RouterBuilder/group(_:_:routes:)``).
///
/// A handler that needs the value can only be registered in such a group, so a route that
/// forgot the rule does not compile: the shape of Hummingbird's child request contexts, as a
/// parameter instead of a context type, so every other route's context stays as small as it is.
public protocol RouteGuarantee: Sendable {
    /// The value the group's handlers get.
    associatedtype Guaranteed: Sendable

    /// The value for this request, or the error that answers a request without it: a redirect
    /// to sign in and come back to `page`, say, or a 404.
    func check(_ context: RequestContext, returningTo page: String) throws -> Guaranteed
}
