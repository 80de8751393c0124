import Tessera

/// The storefront's own routes: the health check. Feature modules bring theirs.
enum StorefrontRoutes {
    static let health = Route<NoParameters>("storefront.health", .get, "/healthz")
}

struct StorefrontModule: FeatureModule {
    static let healthy = PreparedResponse(text: "ok\n")

    func register(in app: inout ApplicationBuilder) {
        app.routes.action(StorefrontRoutes.health) { _, _ in Self.healthy.response }
    }
}
