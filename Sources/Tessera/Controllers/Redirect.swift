/// Thrown to leave a request for another address, from anywhere a controller can throw: a page
/// controller's `load`, a region, a helper that needs a signed-in user. Like Vapor's
/// `Abort.redirect(to:)`, it saves threading a "redirect or model" result through every caller.
/// The route table answers it with `303 See Other`.
public struct Redirect: Error, Sendable, Equatable {
    public var location: String

    public init(to location: String) {
        self.location = location
    }
}
