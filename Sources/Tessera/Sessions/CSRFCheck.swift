import Crypto
import Foundation
import TesseraViews

/// Cross-site request forgery protection, on by default: every `POST`, `PUT`, `PATCH` and
/// `DELETE` must carry the session's token, in the `_csrf` form field or the `X-CSRF-Token`
/// header. Forms get the field without anyone writing it: the template compiler adds it after
/// every `<form method="post">` tag, from the session of the request being rendered.
enum CSRFCheck {
    static let headerName = HTTPField.Name("X-CSRF-Token")!

    static func applies(to method: HTTPRequest.Method) -> Bool {
        method == .post || method == .put || method == .patch || method == .delete
    }

    static func verify(_ context: RequestContext) throws(HTTPError) {
        let request = context.request
        let sent = request.headers[headerName] ?? (try? request.form())?[FormProtection.fieldName]
        guard let sent, let expected = context.session[Session.csrfKey],
              constantTimeEqual(Array(sent.utf8), Array(expected.utf8))
        else {
            throw HTTPError(.forbidden, message: "This form has expired or did not come from this site. Go back, reload the page and try again.")
        }
    }

    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}

extension Session: CSRFTokenSource {
    static let csrfKey = "_csrf"

    /// The session's CSRF token, made the first time a form needs it.
    public var csrfToken: String {
        if let token = self[Self.csrfKey] { return token }
        let token = SymmetricKey(size: .bits256).withUnsafeBytes { Base64URL.encode(Data($0)) }
        self[Self.csrfKey] = token
        return token
    }
}
