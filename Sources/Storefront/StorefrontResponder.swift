import HTTPTypes
import Tessera

/// The storefront's requests, until the route table arrives: the home page, the health check,
/// and the static files.
struct StorefrontResponder: HTTPResponder {
    static let healthy = PreparedResponse(text: "ok\n")
    let publicFiles: PublicFiles

    func respond(to request: Request) async throws -> Response {
        switch request.path {
        case "/":
            guard request.method == .get || request.method == .head else {
                throw HTTPError(.methodNotAllowed, headers: [.allow: "GET, HEAD"])
            }
            return .html(Array(HomePage.html.utf8))
        case "/healthz":
            return Self.healthy.response
        default:
            if let file = publicFiles.response(to: request) { return file }
            throw HTTPError(.notFound, message: "There is nothing at \(request.path).")
        }
    }
}

enum HomePage {
    static let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Tessera Storefront</title>
        <link rel="stylesheet" href="/css/site.css">
        <link rel="icon" href="/favicon.svg" type="image/svg+xml">
        </head>
        <body>
        <header class="site-header"><nav><a class="brand" href="/">Tessera</a></nav></header>
        <main>
        <h1>Tessera Storefront</h1>
        <p>The shop is opening soon.</p>
        </main>
        </body>
        </html>

        """
}
