import ArgumentParser
import Cookbook
import Foundation
import GRDB
import Logging
import Tessera
import TesseraSQLite

/// The server: `make run`, or `swift run CookbookServer --help` for its settings.
@main
struct CookbookServerCommand: AsyncParsableCommand {
    @OptionGroup var options: ServerOptions

    func run() async throws {
        let settings = try options.resolve()
        settings.bootstrapLogging()
        let logger = Logger(label: "cookbook")
        // SQLite in the data directory, in WAL mode; every module's migrations first.
        let database = try DatabasePool(path: URL(fileURLWithPath: settings.dataDirectory).appendingPathComponent("cookbook.sqlite").path)
        try CookbookApp.migrator.migrate(database)

        var app = ApplicationBuilder()
        CookbookApp.register(in: &app, database: database)
        app.serve(PublicFiles(root: settings.publicDirectory))
        // Under `make dev` only: pages reload after each rebuild, and show a failed build's errors.
        let development = DevelopmentReload.fromEnvironment()
        if let development { app.register(development) }
        let reload: [any Middleware] = development.map { [$0.middleware] } ?? []

        let secrets = try SessionConfiguration.loadSecrets(dataDirectory: settings.dataDirectory)
        let sessions = SessionConfiguration(secret: secrets[0], previousSecrets: Array(secrets.dropFirst()))
        let application = try app.build(
            layout: CookbookLayout(),
            // A request waits for its database five seconds at most, all its calls together; then a 503.
            middleware: reload + [DatabasePatienceMiddleware(limit: .seconds(5)), SessionMiddleware(sessions), ErrorPageMiddleware()],
            routeMiddleware: [CSRFMiddleware()],
            logger: logger,
            developmentMode: development != nil
        )
        try await ApplicationRunner.run(settings: settings, application: application, logger: logger)
    }
}
