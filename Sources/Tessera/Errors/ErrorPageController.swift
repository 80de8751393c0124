import TesseraViews

/// Renders the page for an error status, inside the site layout. An app registers one per status
/// that deserves its own words (`app.errorPages[.notFound] = …`); the rest get
/// ``DefaultErrorPage``.
public protocol ErrorPageController: Sendable {
    func render(_ error: any HTTPResponseError, in context: RequestContext) -> Page
}

/// The model of the default error page.
public struct ErrorPageModel: Sendable {
    public var status: Int
    public var reason: String
    public var message: String
}

/// Status, reason and message, inside the site layout.
public struct DefaultErrorPage: ErrorPageController {
    public init() {}

    public func render(_ error: any HTTPResponseError, in context: RequestContext) -> Page {
        let model = ErrorPageModel(status: error.status.code, reason: error.status.reasonPhrase, message: error.publicMessage)
        return Page(title: "\(error.status.code) \(error.status.reasonPhrase)", body: context.render(ErrorPageView.self, model), status: error.status)
    }
}
