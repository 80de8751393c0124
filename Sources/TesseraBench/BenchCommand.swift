import ArgumentParser
import Foundation
import Logging
import Tessera
import TesseraHTTP
import TesseraPostgres

/// `tessera-bench`: the app `make bench` measures against the C reference, on the same bytes.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera-bench",
        abstract:
            "The app make bench measures: TechEmpower's seven tests (GET /plaintext, /json, and, with a database, /db, /queries, /updates, /cached-queries, /fortunes), and the framework's own (/plaintext-built, /plaintext-suspending, /plaintext-limited, /memory-fortunes, /sqlite-fortunes, /regions)."
    )

    @OptionGroup var options: ServerOptions

    @Option(
        name: .customLong("database-url"),
        help:
            "TechEmpower's PostgreSQL database, for its database tests; its tables are made on first use. [env: DATABASE_URL] (default: no database tests)"
    )
    var databaseURL: String?

    func run() async throws {
        var settings = try options.resolve()
        // TechEmpower requires the field; the framework sends none by default.
        settings.serverName = "Tessera"
        settings.bootstrapLogging()
        let logger = Logger(label: "tessera-bench")
        // DATA_DIR holds the fortune database, made on first use.
        let database = try FortuneDatabase(path: settings.dataDirectory + "/fortunes.sqlite")
        // One loop per server thread: each request, and its PostgreSQL statements, on one.
        let loops = EventLoops(count: max(1, settings.threads))
        var postgres: TechEmpowerDatabase?
        var connections: PostgresConnections?
        if let text = OptionEnvironment().string(databaseURL, "DATABASE_URL") {
            let pool = PostgresConnections(url: try PostgresURL(text), size: max(2, settings.threads * 2), eventLoops: loops, logger: logger)
            connections = pool
            postgres = try await TechEmpowerDatabase(connections: pool)
        }
        let application = try BenchApp.build(database: database, postgres: postgres, logger: logger)
        try await ApplicationRunner.run(settings: settings, application: application, eventLoops: loops, logger: logger)
        await connections?.shutdown()
        await loops.shutdown()
    }
}

/// The bench app, composed like any Tessera app: its module, its layout, and the pipeline a
/// TechEmpower-style app needs: compression for clients that ask (TechEmpower's do not), error
/// pages around every request, the CSRF check once a route matched. No sessions: nothing here
/// signs anyone in.
enum BenchApp {
    static func build(
        database: FortuneDatabase, postgres: TechEmpowerDatabase? = nil, logger: Logger = Logger(label: "tessera-bench")
    ) throws -> Application {
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

/// The benchmark routes.
///
/// TechEmpower's seven tests, at the addresses its entries use and by its rules (see
/// ``TechEmpowerDatabase``): `/plaintext` and `/json`; with a database, `/db`, `/queries`,
/// `/updates`, `/cached-queries` and `/fortunes`.
///
/// The framework's own, each against a reference in `make bench`: `/plaintext` is the answer
/// built once (as the C reference does), answered on the server's thread with no task;
/// `/plaintext-built` a `Response` per request; `/plaintext-suspending` the same after one real
/// suspension (`Task.yield`), what a handler pays when it awaits; `/plaintext-limited` behind a
/// rate limit. `/memory-fortunes` is the Fortunes page from rows in memory (the template's
/// cost), `/sqlite-fortunes` from SQLite; `/regions` is a page of three regions,
/// `/regions-sourced` the same with each region at its own URL, `/regions-live` the same with
/// live regions.
struct BenchModule: FeatureModule {
    static let plaintext = PreparedResponse(text: "Hello, World!")
    let database: FortuneDatabase
    let postgres: TechEmpowerDatabase?

    enum Routes {
        static let plaintext = Route<NoParameters>("bench.plaintext", .get, "/plaintext")
        static let plaintextBuilt = Route<NoParameters>("bench.plaintext-built", .get, "/plaintext-built")
        static let plaintextSuspending = Route<NoParameters>("bench.plaintext-suspending", .get, "/plaintext-suspending")
        static let plaintextLimited = Route<NoParameters>("bench.plaintext-limited", .get, "/plaintext-limited")
        static let json = Route<NoParameters>("bench.json", .get, "/json")
        static let singleQuery = Route<NoParameters>("bench.db", .get, "/db")
        static let multipleQueries = Route<NoParameters>("bench.queries", .get, "/queries")
        static let updates = Route<NoParameters>("bench.updates", .get, "/updates")
        static let cachedQueries = Route<NoParameters>("bench.cached-queries", .get, "/cached-queries")
        static let fortunes = Route<NoParameters>("bench.fortunes", .get, "/fortunes")
        /// Not TechEmpower's: a 2 s statement, for `make bench`'s check that it holds up no other
        /// request on its loop.
        static let slowStatement = Route<NoParameters>("bench.slow-statement", .get, "/slow-statement")
        static let memoryFortunes = Route<NoParameters>("bench.memory-fortunes", .get, "/memory-fortunes")
        static let sqliteFortunes = Route<NoParameters>("bench.sqlite-fortunes", .get, "/sqlite-fortunes")
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
        // TechEmpower's rule: an object mapping `message` to the text, made and encoded per request.
        app.routes.action(Routes.json) { _, _ in try .json(Message(message: "Hello, World!")) }
        if let postgres {
            app.routes.action(Routes.singleQuery) { _, context in try .json(try await postgres.randomWorld(within: context.databaseBudget)) }
            app.routes.action(Routes.multipleQueries) { _, context in
                try .json(try await postgres.randomWorlds(RowCount.parse(context.request.query["queries"]), within: context.databaseBudget))
            }
            app.routes.action(Routes.updates) { _, context in
                try .json(try await postgres.updateRandomWorlds(RowCount.parse(context.request.query["queries"]), within: context.databaseBudget))
            }
            app.routes.action(Routes.cachedQueries) { _, context in
                try .json(postgres.cachedRandomWorlds(RowCount.parse(context.request.query["count"])))
            }
            app.routes.page(Routes.fortunes) { _, _ in FortunesPageController(store: postgres) }
            app.routes.action(Routes.slowStatement) { _, context in
                try await postgres.sleep(seconds: 2, within: context.databaseBudget)
                return .text("slept")
            }
        }
        let store = FortuneStore()
        app.routes.page(Routes.memoryFortunes) { _, _ in FortunesPageController(store: store) }
        let database = self.database
        app.routes.page(Routes.sqliteFortunes) { _, _ in FortunesPageController(store: database) }
        app.routes.page(Routes.regions) { _, _ in RegionsPageController(kind: .plain) }
        // The same three regions at their own URLs, without topics and with: what being live costs a page.
        app.routes.page(Routes.regionsSourced) { _, _ in RegionsPageController(kind: .sourced) }
        app.routes.page(Routes.regionsLive) { _, _ in RegionsPageController(kind: .live) }
        app.routes.fragment(Routes.region) { name, _ in StaticTextRegion(name: name, isLive: true) }
    }
}
