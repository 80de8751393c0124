import TesseraViews

/// What an error looks like: a bare redirect for a 3xx, JSON for a client that asks for it, and
/// otherwise the page of the status's ``ErrorPageController`` in the site's layout, rendered with
/// the request's context, so its navigation knows the visitor.
struct ErrorPageRenderer: Sendable {
    let controllers: [HTTPResponse.Status: any ErrorPageController]

    func response(for error: any HTTPResponseError, in context: RequestContext) -> Response {
        if (300..<400).contains(error.status.code) {
            return Response(status: error.status, headers: error.headers)
        }
        if AcceptHeader(context.request.headers[.accept]).prefersJSON {
            return .json(error)
        }
        let controller = controllers[error.status] ?? DefaultErrorPage()
        let page = controller.render(error, in: context)
        var response = Response.html(context.layout.render(page, in: context).bytes, status: error.status)
        response.headers.append(contentsOf: error.headers)
        return response
    }
}
