import Tessera

/// The storefront's own routes: the home page and the health check. Feature modules bring theirs.
enum StorefrontRoutes {
    static let home = Route<NoParameters>("storefront.home", .get, "/")
    static let health = Route<NoParameters>("storefront.health", .get, "/healthz")
}

struct StorefrontModule: FeatureModule {
    static let healthy = PreparedResponse(text: "ok\n")
    static let homePage = PreparedResponse(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: Array(HomePage.html.utf8))

    func register(in routes: inout RouteTableBuilder) {
        routes.action(StorefrontRoutes.home) { _, _ in Self.homePage.response }
        routes.action(StorefrontRoutes.health) { _, _ in Self.healthy.response }
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
