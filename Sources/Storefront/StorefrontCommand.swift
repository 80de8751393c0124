import Accounts
import ArgumentParser
import Catalog
import Foundation
import Logging
import Orders
import Tessera

/// `storefront`: the shop, composed from the framework and its feature modules.
@main
struct StorefrontCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storefront",
        abstract: "The Tessera storefront: a server-rendered shop on libmicrohttpd."
    )

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let settings = try options.resolve()
        settings.bootstrapLogging()
        let logger = Logger(label: "storefront")
        let database = try await StorefrontDatabase.open(dataDirectory: settings.dataDirectory)

        // The composition root: the only place that knows every module.
        let services = StorefrontServices(database: database)
        var app = ApplicationBuilder()
        app.register(HealthModule(checks: [DatabaseReadiness(database: database)]))
        app.register(CatalogModule(catalog: services.catalog))
        app.register(OrdersModule(cart: services.cart, orders: services.orders, catalog: services.catalog))
        app.register(AccountsModule(accounts: services.accounts))
        app.routes.fallback(PublicFiles(root: settings.publicDirectory))
        let sessions = SessionConfiguration(
            secret: try SessionConfiguration.loadSecret(dataDirectory: settings.dataDirectory),
            secureCookies: settings.https,
            hostPrefix: settings.https
        )
        // The request pipeline, in order. Every request: the session, who is signed in, then
        // error pages (which therefore know both). Once a route matched: the CSRF check.
        let application = try app.build(
            layout: StorefrontLayout(),
            middleware: [SessionMiddleware(sessions), ShopperMiddleware(accounts: services.accounts), ErrorPageMiddleware()],
            routeMiddleware: [CSRFMiddleware()],
            logger: logger
        )
        try await ApplicationRunner.run(settings: settings, application: application, logger: logger)
    }
}
