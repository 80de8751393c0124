import TesseraHTTP
public import TesseraViews

/// A way on from an error page besides the home page: back to the order the visitor was acting
/// on, say. ``DefaultErrorPage`` shows it above the link home.
public struct ErrorPageLink: Sendable, Equatable {
    /// The link's text, such as `Back to order #3`.
    public var label: String
    /// Where it leads, usually a route's `path`.
    public var url: String

    /// A link labelled `label` to `url`.
    public init(_ label: String, url: String) {
        self.label = label
        self.url = url
    }
}

/// An error answered exactly like the one it carries (status, message, header fields), whose
/// error page also offers a link back to where the visitor was. A controller that knows where
/// that is wraps the error it catches with `linking(to:)`:
///
/// ```swift
/// catch let refusal as OrderTransitionError {
///     throw refusal.linking(to: ErrorPageLink("Back to order #\(id)", url: OrdersRoutes.order.path(id)))
/// }
/// ```
public struct LinkedError: LocalizedResponseError {
    /// The error as it was thrown.
    public var error: any HTTPResponseError
    /// The way back, shown on the error page.
    public var link: ErrorPageLink

    /// `error`, whose page also offers `link`.
    public init(_ error: any HTTPResponseError, link: ErrorPageLink) {
        self.error = error
        self.link = link
    }

    /// The carried error's status.
    public var status: HTTPResponse.Status { error.status }
    /// The carried error's message.
    public var publicMessage: String { error.publicMessage }
    /// The carried error's message in `language`.
    public func publicMessage(in language: Language) -> String { error.localizedMessage(in: language) }
    /// The carried error's header fields.
    public var headers: HTTPFields { error.headers }
}

extension HTTPResponseError {
    /// This error, answered as it is, with `link` on its error page.
    public func linking(to link: ErrorPageLink) -> LinkedError {
        LinkedError(self, link: link)
    }
}
