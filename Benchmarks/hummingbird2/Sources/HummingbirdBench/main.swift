import Foundation
import Hummingbird
import Logging
import NIOPosix
import PostgresNIO

// TechEmpower's `hummingbird2` entry, as a peer for `make bench`: the same router, request
// context, PostgresClient (200 connections unless POOL_SIZE says otherwise) run as one of the
// application's services, prepared statements and JSONEncoder answers. Beyond the entry:
// `/cached-queries` and one batched UPDATE per `/updates` request.

struct BenchRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage

    init(source: ApplicationRequestContextSource) {
        self.coreContext = CoreRequestContextStorage(source: source)
    }
}

func runApp() async throws {
    let settings = try Settings()
    let cache = try await WorldCache.load(
        settings.connectionConfiguration,
        logger: Logger(label: "HummingbirdBench")
    )
    let postgresClient = PostgresClient(
        configuration: settings.database,
        eventLoopGroup: MultiThreadedEventLoopGroup.singleton
    )

    let router = Router(context: BenchRequestContext.self)
    router.get("plaintext") { _, _ in
        "Hello, World!"
    }
    router.get("json") { _, _ in
        Message(message: "Hello, World!")
    }
    router.addRoutes(WorldController(postgresClient: postgresClient, cache: cache).routes)
    router.addRoutes(try FortunesController(postgresClient: postgresClient).routes)

    var app = Application(
        router: router,
        configuration: .init(
            address: .hostname(settings.host, port: settings.port),
            serverName: "hummingbird",
            backlog: 8192
        )
    )
    app.addServices(postgresClient)
    try await app.runService()
}

do {
    try await runApp()
} catch {
    FileHandle.standardError.write(Data("HummingbirdBench: \(String(reflecting: error))\n".utf8))
    exit(1)
}
