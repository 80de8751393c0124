import TesseraViews

/// Cross-site request forgery protection without a token, by where the browser says a request
/// comes from, as Go's `CrossOriginProtection`, ASP.NET Core 11 and Rails 8.2 do (decision 0035).
/// Every `POST`, `PUT`, `PATCH` and `DELETE`:
/// - passes when `Sec-Fetch-Site` is `same-origin` or `none` (the visitor typed it, or a page of
///   this site sent it); any other value (`same-site`, `cross-site`) is refused;
/// - without `Sec-Fetch-Site` (a browser older than 2020, or a plain-HTTP origin, where browsers
///   do not send it), passes when `Origin` names the app's own origin: ``SiteURL`` from
///   `PUBLIC_URL`, or the request's own site on loopback (``RequestContext/trustedSite``); any
///   other `Origin`, `null` included, is refused;
/// - with neither header, passes: it is not a browser (a script, a test, a scraper), whose
///   requests no other site can make a visitor's browser send.
///
/// A refusal is a 403 in the visitor's language. Forms carry nothing, so a page with a form is
/// the same for every visitor without a session, and can be kept whole. Session cookies stay
/// `SameSite=Lax` as a second fence.
///
/// A route middleware: it runs once a route has matched, so a `POST` to an address that does not
/// exist is still a 404, and one to an address that takes only `GET` a 405.
public struct CSRFMiddleware: Middleware {
    /// The CSRF step.
    public init() {}

    /// Checks where an unsafe request comes from; one from elsewhere is a 403.
    public func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
        if Self.isUnsafe(context.request.method) { try Self.verify(context) }
        return .next
    }

    /// `Sec-Fetch-Site`, which every current browser sends over HTTPS and to `localhost`.
    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let origin = HTTPField.Name("Origin")!

    static func isUnsafe(_ method: HTTPRequest.Method) -> Bool {
        method == .post || method == .put || method == .patch || method == .delete
    }

    static func verify(_ context: RequestContext) throws(HTTPError) {
        let headers = context.request.headers
        if let site = headers[fetchSite] {
            guard site == "same-origin" || site == "none" else { throw refusal }
            return
        }
        guard let origin = headers[origin] else { return }
        guard let own = context.trustedSite, let sent = SiteURL(origin), sent.isSameOrigin(as: own) else { throw refusal }
    }

    private static var refusal: HTTPError { HTTPError(.forbidden, Messages.errorCsrf.text()) }
}
