import ArgumentParser
import Logging
import Recipes
import Tessera

@main
struct RecipesCommand: AsyncParsableCommand {
    @OptionGroup var options: ServerOptions

    func run() async throws {
        let settings = try options.resolve()
        settings.bootstrapLogging()
        let logger = Logger(label: "recipes")

        var app = ApplicationBuilder()
        app.register(RecipesModule(book: .sample))
        app.serve(PublicFiles(root: settings.publicDirectory))
        // Under `make dev` only: pages reload after each rebuild, and show a failed build's errors.
        let development = DevelopmentReload.fromEnvironment()
        if let development { app.register(development) }
        let reload: [any Middleware] = development.map { [$0.middleware] } ?? []

        let secrets = try SessionConfiguration.loadSecrets(dataDirectory: settings.dataDirectory)
        let sessions = SessionConfiguration(secret: secrets[0], previousSecrets: Array(secrets.dropFirst()))
        let application = try app.build(
            middleware: reload + [SessionMiddleware(sessions), ErrorPageMiddleware()],
            routeMiddleware: [CSRFMiddleware()],
            logger: logger
        )
        try await ApplicationRunner.run(settings: settings, application: application, logger: logger)
    }
}
