import TesseraViews

/// Renders the page for an error status. The route table picks one per status (400, 403, 404,
/// 405, 409, 413, 429, 500, 503 …), falling back to ``DefaultErrorPage``.
public protocol ErrorPageController: Sendable {
    func render(_ error: HTTPError, in context: RequestContext) -> Page
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

    public func render(_ error: HTTPError, in context: RequestContext) -> Page {
        let model = ErrorPageModel(status: error.status.code, reason: error.status.reasonPhrase, message: error.message)
        return Page(title: "\(error.status.code) \(error.status.reasonPhrase)", body: ErrorPageView.render(model), status: error.status)
    }
}
