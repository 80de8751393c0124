import ArgumentParser
import Logging
import Tessera

/// `tessera-bench`: the app `make bench` measures against the C reference, on the same bytes.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera-bench",
        abstract: "Benchmark endpoints: GET /plaintext, /plaintext-routed, /plaintext-built, /plaintext-suspending, /fortunes and /regions."
    )

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let settings = try options.resolve()
        settings.bootstrapLogging()
        let logger = Logger(label: "tessera-bench")
        var routes = RouteTableBuilder()
        routes.register(BenchModule())
        let table = try routes.build(layout: BenchLayout(), logger: logger)
        try await ApplicationRunner.run(settings: settings, responder: ServerLayerPlaintext(next: table), errorResponder: table, logger: logger)
    }
}

/// `/plaintext` answered by an `HTTPResponder` in front of the route table: the measurement of
/// the HTTP server layer itself (request parsing, the async handler path, the response), which is
/// what the C reference is the limit for. Everything else goes to the table.
struct ServerLayerPlaintext: HTTPResponder {
    let next: RouteTable

    func respond(to request: Request) async throws -> Response {
        if request.path == "/plaintext" { return BenchModule.plaintext.response }
        return try await next.respond(to: request)
    }
}

/// The benchmark routes. The plaintext ones all answer `Hello, World!` as `text/plain; charset=utf-8`:
/// - `/plaintext-routed`, the same prepared answer (built once, as the C reference does) through
///   the route table;
/// - `/plaintext-built`, a `Response` built for each request;
/// - `/plaintext-suspending`, the prepared answer after one real suspension (`Task.yield`), the
///   cost a handler pays when it awaits something, such as a database.
/// `/fortunes` is the TechEmpower Fortunes page through a page controller, the route table and
/// typed views in a layout; `/regions` is a page of three regions.
struct BenchModule: FeatureModule {
    static let plaintext = PreparedResponse(text: "Hello, World!")

    enum Routes {
        static let plaintextRouted = Route<NoParameters>("bench.plaintext-routed", .get, "/plaintext-routed")
        static let plaintextBuilt = Route<NoParameters>("bench.plaintext-built", .get, "/plaintext-built")
        static let plaintextSuspending = Route<NoParameters>("bench.plaintext-suspending", .get, "/plaintext-suspending")
        static let fortunes = Route<NoParameters>("bench.fortunes", .get, "/fortunes")
        static let regions = Route<NoParameters>("bench.regions", .get, "/regions")
    }

    func register(in routes: inout RouteTableBuilder) {
        routes.action(Routes.plaintextRouted) { _, _ in Self.plaintext.response }
        routes.action(Routes.plaintextBuilt) { _, _ in .text("Hello, World!") }
        routes.action(Routes.plaintextSuspending) { _, _ in
            await Task.yield()
            return Self.plaintext.response
        }
        let store = FortuneStore()
        routes.page(Routes.fortunes) { _, _ in FortunesController(store: store) }
        routes.page(Routes.regions) { _, _ in RegionsController() }
    }
}
