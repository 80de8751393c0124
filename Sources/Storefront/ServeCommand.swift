import Accounts
import ArgumentParser
import BackOffice
import Catalog
import Foundation
import Logging
import Metrics
import Orders
import Prometheus
import Tessera
import TesseraHTTP
import TesseraMail
import TesseraPasskeys
import TesseraViews

/// `storefront serve`: composes the app and serves it until SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the storefront (the default)."
    )

    @OptionGroup var options: ServerOptions
    @OptionGroup var databaseOptions: DatabaseOptions
    @OptionGroup var mailOptions: MailOptions
    @OptionGroup var passkeyOptions: PasskeyOptions
    @OptionGroup var passwordOptions: PasswordOptions
    @OptionGroup var limitOptions: LimitOptions

    func run() async throws {
        let (settings, secrets, databaseChoice, databaseTimeout, mail, relyingParty, hasher, limits) = try await UsageError.reported {
            let settings = try options.resolve()
            let databaseChoice = try databaseOptions.resolve()
            let databaseTimeout = try databaseOptions.requestTimeout()
            let mail = try mailOptions.resolve(dataDirectory: settings.dataDirectory)
            let relyingParty = try passkeyOptions.resolve(publicURL: settings.publicURL)
            let hasher = try passwordOptions.resolve()
            let limits = try limitOptions.resolve()
            do {
                return (
                    settings, try SessionConfiguration.loadSecrets(dataDirectory: settings.dataDirectory), databaseChoice, databaseTimeout, mail,
                    relyingParty, hasher, limits
                )
            } catch let short as SessionConfiguration.SecretTooShort {
                throw ValidationError(short.description)
            }
        }
        settings.bootstrapLogging()
        let tracing = try await UsageError.reported {
            try StorefrontTracing.bootstrap(environment: ProcessInfo.processInfo.environment, logger: Logger(label: "storefront.tracing"))
        }
        let metricsRegistry = PrometheusCollectorRegistry()
        if settings.metricsPort != nil {
            MetricsSystem.bootstrap(PrometheusMetricsFactory.storefront(registry: metricsRegistry))
        }
        let logger = Logger(label: "storefront")
        // One loop per server thread, shared by the server and PostgreSQL's connections.
        let eventLoops = EventLoops(count: max(1, settings.threads))
        let storage = try await UnavailableAtStart.reported {
            try await StorefrontStorage.open(
                databaseChoice, dataDirectory: settings.dataDirectory, liveConfiguration: settings.liveConfiguration,
                mailSender: mail.sender, relyingParty: relyingParty, hasher: hasher, eventLoops: eventLoops, logger: logger)
        }
        // After the database opened: a start that fails says why in one line.
        if hasher.rounds < PasswordOptions.recommendedRounds {
            logger.warning(
                "password hashes are weaker than recommended: for tests only",
                metadata: ["rounds": "\(hasher.rounds)", "recommended": "\(PasswordOptions.recommendedRounds)"])
        }

        // The composition root: the only place that knows every module.
        let services = storage.services
        var app = ApplicationBuilder()
        app.live = storage.live
        app.regionCache = settings.makeRegionCache()
        app.keptPages = settings.makeKeptPages()
        app.rateLimitStore = services.rateLimits
        if tracing != nil { logger.info("traces: exported over OTLP/HTTP (OTEL_* settings)") }
        // Order confirmations: checkout queues them in the database, this sends them.
        app.services.append(MailOutboxWorker(outbox: services.mailOutbox, transport: mail.transport, logger: logger))
        logger.info("mail: sent to \(mail.destination)", metadata: ["from": "\(mail.sender)"])
        app.register(HealthModule(checks: [storage.readiness]))
        app.register(CatalogModule(catalog: services.catalog, photos: services.photos))
        app.register(OrdersModule(cart: services.cart, orders: services.orders, catalog: services.catalog, checkoutLimit: limits.checkout))
        app.register(BackOfficeModule(orders: services.orders, catalog: services.catalog, photos: services.photos, accounts: services.accounts))
        app.register(
            AccountsModule(
                accounts: services.accounts, passkeys: services.passkeys, passwordResets: services.passwordResets,
                signInObservers: [CartFollowsShopper(cart: services.cart)], registrationLimit: limits.registration,
                passwordResetLimit: limits.passwordReset))
        app.register(RobotsModule())
        // `make dev` only: pages reload after each rebuild, and show a failed build's errors.
        let development = DevelopmentReload.fromEnvironment()
        if let development { app.register(development) }
        app.serve(PublicFiles(root: settings.publicDirectory))
        app.siteURL = settings.publicURL
        let sessions = SessionConfiguration(
            secret: secrets[0],
            previousSecrets: Array(secrets.dropFirst()),
            secureCookies: settings.https,
            hostPrefix: settings.https
        )
        // The shop's languages: English first (the fallback), then German. Each module's
        // messages are in Views/<Module>/locales/<code>.json.
        let languages = [Language("en", currencies: [Money.currencyCode]), Language("de", currencies: [Money.currencyCode])]
        // The request pipeline, in order. Every request: the request's span when traces are
        // exported and metrics when they are (outermost, so they time and see everything), the
        // database's patience (around every step that may wait for it), compression (so it sees the final
        // answer), the session (which also sets what caches may keep), who is signed in, the
        // language, then error pages (which therefore know all three, and go out with the
        // language's headers). Once a route matched: a `?lang=` the shop lacks is refused (an
        // error page in the language the other sources chose), then the CSRF check.
        // Under `make dev`, the reload script goes into pages just inside compression.
        let tracingStep: [any Middleware] = tracing == nil ? [] : [TracingMiddleware()]
        let metricsStep: [any Middleware] = settings.metricsPort == nil ? [] : [MetricsMiddleware()]
        let developmentStep: [any Middleware] = development.map { [$0.middleware] } ?? []
        let application = try app.build(
            layout: StorefrontLayout(),
            middleware: tracingStep + metricsStep + [DatabasePatienceMiddleware(limit: databaseTimeout), CompressionMiddleware()] + developmentStep
                + [
                    SessionMiddleware(sessions), ShopperMiddleware(accounts: services.accounts),
                    LanguageMiddleware(languages: languages), ErrorPageMiddleware(),
                ],
            routeMiddleware: [LanguageParameterCheck(), CSRFMiddleware()],
            logger: logger,
            developmentMode: development != nil
        )
        let metrics = PrometheusEndpoint(registry: metricsRegistry, server: application.serverState)
        do {
            // The exporter stops after the server, so the drained requests' spans go out too.
            try await ApplicationRunner.run(
                settings: settings, application: application, metrics: metrics,
                outliving: tracing.map { [$0] } ?? [], eventLoops: eventLoops, logger: logger)
        } catch {
            await storage.close()
            await eventLoops.shutdown()
            throw error
        }
        await storage.close()
        await eventLoops.shutdown()
    }
}
