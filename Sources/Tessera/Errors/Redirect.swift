/// Thrown to leave a request for another address, from anywhere a controller can throw: a page
/// controller's `load`, a region, a helper that needs a signed-in user. Like Vapor's
/// `Abort.redirect(to:)`, it saves threading a "redirect or model" result through every caller.
/// It is answered with `303 See Other`.
public struct Redirect: HTTPResponseError, Equatable {
    /// Where the visitor is sent, as the `Location` header: usually a route's `path`.
    public var location: String

    /// A redirect to `location`, such as `CatalogRoutes.product.path(42)`.
    public init(to location: String) {
        self.location = location
    }

    /// `303 See Other`, so that the browser follows with a `GET`, even after a form post.
    public var status: HTTPResponse.Status { .seeOther }
    /// A short text naming the new address, for a client that shows one.
    public var publicMessage: String { "See \(location)" }
    /// The `Location` header the browser follows.
    public var headers: HTTPFields { [.location: location] }
}
