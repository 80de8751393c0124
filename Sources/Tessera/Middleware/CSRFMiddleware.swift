import Crypto
import Foundation
import TesseraViews

/// Cross-site request forgery protection: every `POST`, `PUT`, `PATCH` and `DELETE` must carry
/// the session's token, in the `_csrf` form field or the `X-CSRF-Token` header, or it is a 403.
/// A browser that says the request comes from another site (`Sec-Fetch-Site: cross-site` or
/// `same-site`) is refused before the token is looked at, so a leaked token does not let another
/// site post (decision 0031).
///
/// A route middleware: it runs once a route has matched, so a `POST` to an address that does not
/// exist is still a 404, and one to an address that takes only `GET` a 405. Forms get the field
/// without anyone writing it: the template compiler adds it after every `<form method="post">`,
/// from the token the rendering was given.
public struct CSRFMiddleware: Middleware {
    /// `X-CSRF-Token`, where a script sends the token instead of the form field.
    public static let headerName = HTTPField.Name("X-CSRF-Token")!

    /// The CSRF step; the session step must run before it, since the session holds the token.
    public init() {}

    /// Checks the token of an unsafe request; a missing or wrong one is a 403.
    public func before(_ context: inout RequestContext) throws -> StepOutcome {
        if Self.isUnsafe(context.request.method) { try Self.verify(context) }
        return .next
    }

    /// `Sec-Fetch-Site`, which every current browser sends with a form's request: where it came from.
    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!

    static func isUnsafe(_ method: HTTPRequest.Method) -> Bool {
        method == .post || method == .put || method == .patch || method == .delete
    }

    static func verify(_ context: RequestContext) throws(HTTPError) {
        let request = context.request
        if let site = request.headers[fetchSite], site != "same-origin", site != "none" {
            throw HTTPError(.forbidden, Messages.errorCsrf.text())
        }
        var sent = request.headers[headerName]
        if sent == nil { sent = try formToken(of: request) }
        guard let sent, let expected = context.session.csrfToken,
            constantTimeEqual(Array(sent.utf8), Array(expected.utf8))
        else {
            throw HTTPError(.forbidden, Messages.errorCsrf.text())
        }
    }

    /// The token field of the form in the body. A body that is not a form has none, but a form
    /// the server refuses (too many parts, malformed) is answered as what it is, not as a
    /// missing token.
    private static func formToken(of request: Request) throws(HTTPError) -> String? {
        do {
            return try request.form()[FormProtection.fieldName]
        } catch  where error.status == .unsupportedMediaType {
            return nil
        }
    }

    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
