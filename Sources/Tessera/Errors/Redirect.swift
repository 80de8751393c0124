/// Thrown to leave a request for another address, from anywhere a controller can throw: a page
/// controller's `load`, a region, a helper that needs a signed-in user. Like Vapor's
/// `Abort.redirect(to:)`, it saves threading a "redirect or model" result through every caller.
/// It is answered with `303 See Other`.
public struct Redirect: HTTPResponseError, Equatable {
    public var location: String

    public init(to location: String) {
        self.location = location
    }

    public var status: HTTPResponse.Status { .seeOther }
    public var publicMessage: String { "See \(location)" }
    public var headers: HTTPFields { [.location: location] }
}
