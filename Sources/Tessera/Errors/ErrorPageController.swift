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
    /// What the visitor is told: the error's public message in the visitor's language, never
    /// its internals.
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

    /// The status, its reason, the error's public message and its link, if any. A message may
    /// quote what the visitor sent (an unknown `?lang=`): its control characters are dropped.
    public func render(_ error: any HTTPResponseError, in context: RequestContext) -> Page {
        let reason = Self.reason(of: error.status, in: context.language)
        let model = ErrorPageModel(
            status: error.status.code, reason: reason, message: ControlCharacters.removed(from: error.localizedMessage(in: context.language)),
            link: (error as? LinkedError)?.link)
        return Page(title: "\(error.status.code) \(reason)", body: context.render(ErrorPageView.self, model), status: error.status)
    }

    /// The status's reason phrase in `language`, for the statuses error pages show; others keep
    /// HTTP's English phrase.
    static func reason(of status: HTTPResponse.Status, in language: Language) -> String {
        let message: LocalizedMessage? =
            switch status.code {
            case 400: Messages.status400
            case 403: Messages.status403
            case 404: Messages.status404
            case 405: Messages.status405
            case 409: Messages.status409
            case 413: Messages.status413
            case 414: Messages.status414
            case 415: Messages.status415
            case 422: Messages.status422
            case 429: Messages.status429
            case 431: Messages.status431
            case 500: Messages.status500
            case 501: Messages.status501
            case 503: Messages.status503
            default: nil
            }
        return message?.string(in: language) ?? status.reasonPhrase
    }
}
