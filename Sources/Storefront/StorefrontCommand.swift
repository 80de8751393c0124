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
        var routes = RouteTableBuilder()
        routes.register(StorefrontModule())
        let services = StorefrontServices(database: database)
        routes.register(CatalogModule(catalog: services.catalog))
        routes.register(OrdersModule(cart: services.cart, orders: services.orders, catalog: services.catalog))
        routes.register(AccountsModule(accounts: services.accounts))
        routes.fallback(PublicFiles(root: settings.publicDirectory))
        let sessions = SessionConfiguration(
            secret: try SessionConfiguration.loadSecret(dataDirectory: settings.dataDirectory),
            secureCookies: ProcessInfo.processInfo.environment["HTTPS"] == "1"
        )
        let table = try routes.build(layout: StorefrontLayout(), sessions: sessions, logger: logger)
        try await ApplicationRunner.run(settings: settings, responder: table, errorResponder: table, logger: logger)
    }
}
