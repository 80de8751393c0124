import TesseraViews

/// Renders the page for an error status, inside the site layout. An app registers one per status
/// that deserves its own words (`app.errorPages[.notFound] = …`); the rest get
/// ``DefaultErrorPage``.
public protocol ErrorPageController: Sendable {
    /// The page for `error`, which the site's layout then wraps; the answer keeps the error's
    /// status and headers, whatever the page's own status says.
    func render(_ error: any HTTPResponseError, in context: RequestContext) -> Page
}

/// The model of the default error page.
public struct ErrorPageModel: Sendable {
    /// The status code, such as 404.
    public var status: Int
    /// The status's reason phrase, such as `Not Found`.
    public var reason: String
    /// What the visitor is told: the error's public message, never its internals.
    public var message: String
    /// A way back to where the visitor was, when the error knows one (a ``LinkedError``); the
    /// page always links home too.
    public var link: ErrorPageLink?

    /// The model for an error page.
    public init(status: Int, reason: String, message: String, link: ErrorPageLink? = nil) {
        self.status = status
        self.reason = reason
        self.message = message
        self.link = link
    }
}

/// Status, reason and message, inside the site layout, with the error's way back when it is a
/// ``LinkedError``.
public struct DefaultErrorPage: ErrorPageController {
    /// The default error page; it needs nothing.
    public init() {}

    /// The status, its reason, the error's public message and its link, if any.
    public func render(_ error: any HTTPResponseError, in context: RequestContext) -> Page {
        let model = ErrorPageModel(status: error.status.code, reason: error.status.reasonPhrase, message: error.publicMessage,
                                   link: (error as? LinkedError)?.link)
        return Page(title: "\(error.status.code) \(error.status.reasonPhrase)", body: context.render(ErrorPageView.self, model), status: error.status)
    }
}
