/// A one-time message carried across a redirect (Post/Redirect/Get): set before redirecting,
/// shown once by the next page, then gone. It lives in the session.
extension RequestContext {
    static let flashKey = "_flash"

    /// A 303 to `location`, with `flash` to show on the page it leads to.
    public func redirect(to location: String, flash: String? = nil) -> Response {
        if let flash { session[Self.flashKey] = flash }
        return .redirect(to: location)
    }

    /// The pending flash message, removed as it is read.
    public func takeFlash() -> String? {
        guard let message = session[Self.flashKey] else { return nil }
        session[Self.flashKey] = nil
        return message
    }
}
