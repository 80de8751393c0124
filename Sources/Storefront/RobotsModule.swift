import Accounts
import Catalog
import Orders
import Tessera

/// `/robots.txt`, in the composition root because it speaks for every module: crawlers may read
/// the catalog, not the private pages (cart, checkout, orders, account, sign-in, password resets), nor a region's
/// own URL or a listing's other sort orders, and they find the sitemap at its full address.
struct RobotsModule: FeatureModule {
    static let robots = Route<NoParameters>("storefront.robots", .get, "/robots.txt")

    func register(in app: inout ApplicationBuilder) {
        let privatePaths = [
            OrdersRoutes.cart.path, OrdersRoutes.checkout.path, OrdersRoutes.orders.path,
            AccountsRoutes.account.path, AccountsRoutes.login.path, AccountsRoutes.register.path, "/password/",
        ]
        app.routes.action(Self.robots) { _, context in
            var lines = ["User-agent: *"]
            lines += privatePaths.map { "Disallow: \($0)" }
            // Regions answer alone at /products/{id}/…; the product page itself stays allowed.
            lines += ["Disallow: /products/*/", "Disallow: /*?*sort=", "", "Sitemap: \(context.absoluteURL(for: CatalogRoutes.sitemap.path))"]
            return .text(lines.joined(separator: "\n") + "\n")
        }
    }
}
