import ArgumentParser
import Foundation
import Logging
import Tessera
import TesseraPostgres

/// `tessera-bench`: the app `make bench` measures against the C reference, on the same bytes.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera-bench",
        abstract: "Benchmark endpoints: GET /plaintext, /plaintext-built, /plaintext-suspending, /fortunes, /db-fortunes, /pg-fortunes and /regions."
    )

    @OptionGroup var options: ServerOptions

    @Option(name: .customLong("database-url"), help: "A PostgreSQL database for /pg-fortunes. [env: DATABASE_URL] (default: no /pg-fortunes)")
    var databaseURL: String?

    func run() async throws {
        let settings = try options.resolve()
        settings.bootstrapLogging()
        let logger = Logger(label: "tessera-bench")
        // DATA_DIR holds the fortune database, made on first use.
        let database = try FortuneDatabase(path: settings.dataDirectory + "/fortunes.sqlite")
        var postgres: PostgresFortunes?
        var connections: PostgresConnections?
        if let text = OptionEnvironment().string(databaseURL, "DATABASE_URL") {
            let pool = PostgresConnections(url: try PostgresURL(text), size: max(2, settings.threads * 2), logger: logger)
            connections = pool
            postgres = try await PostgresFortunes(connections: pool)
        }
        let application = try BenchApp.build(database: database, postgres: postgres, logger: logger)
        try await ApplicationRunner.run(settings: settings, application: application, logger: logger)
        await connections?.shutdown()
    }
}

/// The bench app, composed like any Tessera app: its module, its layout, and the pipeline a
/// TechEmpower-style app needs: compression for clients that ask (TechEmpower's do not), error
/// pages around every request, the CSRF check once a route matched. No sessions: nothing here
/// signs anyone in.
enum BenchApp {
    static func build(database: FortuneDatabase, postgres: PostgresFortunes? = nil, logger: Logger = Logger(label: "tessera-bench")) throws -> Application {
        var app = ApplicationBuilder()
        app.live = LiveRegions()
        app.register(BenchModule(database: database, postgres: postgres))
        return try app.build(
            layout: BenchLayout(),
            middleware: [CompressionMiddleware(), ErrorPageMiddleware()],
            routeMiddleware: [CSRFMiddleware()],
            logger: logger
        )
    }
}

/// The benchmark routes. The plaintext ones all answer `Hello, World!` as `text/plain; charset=utf-8`:
/// - `/plaintext`, the answer built once (as the C reference does), through the whole pipeline;
///   its action does not wait, so the request is answered on the server's thread, with no task;
/// - `/plaintext-built`, a `Response` built for each request;
/// - `/plaintext-suspending`, the prepared answer after one real suspension (`Task.yield`), the
///   cost a handler pays when it awaits something, such as a database: a task, and a resumption.
/// `/fortunes` is the TechEmpower Fortunes page through a page controller, the pipeline and
/// typed views in a layout, from rows in memory; `/db-fortunes` the same page from SQLite, by the
/// TechEmpower rules, and `/pg-fortunes` from PostgreSQL (when the bench has a database URL);
/// `/regions` is a page of three regions, `/regions-sourced` the same with
/// each region at its own URL, and `/regions-live` the same again with live regions.
struct BenchModule: FeatureModule {
    static let plaintext = PreparedResponse(text: "Hello, World!")
    let database: FortuneDatabase
    let postgres: PostgresFortunes?

    enum Routes {
        static let plaintext = Route<NoParameters>("bench.plaintext", .get, "/plaintext")
        static let plaintextBuilt = Route<NoParameters>("bench.plaintext-built", .get, "/plaintext-built")
        static let plaintextSuspending = Route<NoParameters>("bench.plaintext-suspending", .get, "/plaintext-suspending")
        static let plaintextLimited = Route<NoParameters>("bench.plaintext-limited", .get, "/plaintext-limited")
        static let fortunes = Route<NoParameters>("bench.fortunes", .get, "/fortunes")
        static let databaseFortunes = Route<NoParameters>("bench.db-fortunes", .get, "/db-fortunes")
        static let postgresFortunes = Route<NoParameters>("bench.pg-fortunes", .get, "/pg-fortunes")
        static let regions = Route<NoParameters>("bench.regions", .get, "/regions")
        static let regionsSourced = Route<NoParameters>("bench.regions-sourced", .get, "/regions-sourced")
        static let regionsLive = Route<NoParameters>("bench.regions-live", .get, "/regions-live")
        static let region = Route<String>("bench.region", .get, "/regions/{name}")
    }

    func register(in app: inout ApplicationBuilder) {
        app.routes.action(Routes.plaintext) { _, _ in Self.plaintext.response }
        app.routes.action(Routes.plaintextBuilt) { _, _ in .text("Hello, World!") }
        app.routes.action(Routes.plaintextSuspending) { _, _ in
            await Task.yield()
            return Self.plaintext.response
        }
        // The prepared answer behind a rate limit counted in memory, high enough never to refuse:
        // what a limited route pays against ``Routes/plaintext``.
        app.routes.group(app.rateLimit("bench", RateLimitRule(limit: 1_000_000, per: .seconds(1)))) { limited in
            limited.action(Routes.plaintextLimited) { _, _ in Self.plaintext.response }
        }
        let store = FortuneStore()
        app.routes.page(Routes.fortunes) { _, _ in FortunesPageController(store: store) }
        let database = self.database
        app.routes.page(Routes.databaseFortunes) { _, _ in FortunesPageController(store: database) }
        if let postgres {
            app.routes.page(Routes.postgresFortunes) { _, _ in FortunesPageController(store: postgres) }
        }
        app.routes.page(Routes.regions) { _, _ in RegionsPageController(kind: .plain) }
        // The same three regions at their own URLs, without topics and with: what being live costs a page.
        app.routes.page(Routes.regionsSourced) { _, _ in RegionsPageController(kind: .sourced) }
        app.routes.page(Routes.regionsLive) { _, _ in RegionsPageController(kind: .live) }
        app.routes.fragment(Routes.region) { name, _ in StaticTextRegion(name: name, isLive: true) }
    }
}
