import Foundation
import PostgresTestSupport
import TesseraPostgres
import TesseraTesting
import Testing

/// Heap allocations per request, held to ``AllocationBudget``: the request path's cost, guarded
/// by counts that no busy machine can change, as SwiftNIO's allocation-counter tests do.
///
/// Each server runs with `Tests/AllocationCounter/allocation_counter.c` preloaded, which counts
/// every call into the allocator in a file this test reads. A route is asked 200 times to warm
/// it up, then 1,000 times on the same connection; the count is what those 1,000 added, per
/// request, rounded down (whatever else the process does in that time, a timer say, adds far
/// less than one per request).
///
/// The budgets are those of optimised builds, which `make test` tests: a debug build allocates
/// far more, so against one the suite does not run, and says so.
@Suite(.serialized, .enabled(if: AllocationCounter.serversAreOptimised, "the allocation budgets are for release builds; this is a debug build"))
struct AllocationBudgetTests {
    @Test func theBenchAppsRoutesStayWithinTheirBudgets() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let databaseURL = try PostgresTestCluster.databaseURL(url.database)
        let counter = try AllocationCounter()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let bench = try ProcessHarness(
            product: "tessera-bench",
            environment: counter.environment.merging([
                "PORT": "0", "HOST": "127.0.0.1", "LOG_LEVEL": "notice", "DATA_DIR": data.path, "DATABASE_URL": databaseURL,
            ]) { $1 })
        let port = try await bench.waitForPort()

        try await counter.expect("/plaintext", on: port, within: AllocationBudget.plaintext)
        try await counter.expect("/memory-fortunes", on: port, within: AllocationBudget.memoryFortunes)
        try await counter.expect("/db", on: port, within: AllocationBudget.singleQuery)

        bench.signal(SIGTERM)
        #expect(try await bench.waitForExit() == 0)
        await PostgresTestCluster.drop(url)
    }

    @Test func theStorefrontsPagesStayWithinTheirBudgets() async throws {
        let counter = try AllocationCounter()
        try await TestStorefront.run(environment: counter.environment) { shop in
            try await counter.expect("/products/2", on: shop.port, within: AllocationBudget.productPageFirstVisit)

            // A repeat view: the session cookie a first view set, and the validator a second
            // view got, as `make bench` sends them.
            let first = try await shop.get("/products/2")
            let cookie = try #require(first.header("set-cookie")?.split(separator: ";").first.map(String.init))
            let second = try await onThread { try RawHTTPClient.request(port: shop.port, "/products/2", headers: ["Cookie": cookie]) }
            let validator = try #require(second.header("etag"))
            let headers = ["Cookie": cookie, "If-None-Match": validator]
            try await counter.expect("/products/2", headers: headers, status: 304, on: shop.port, within: AllocationBudget.repeatViewNotModified)
        }
    }
}

/// The preloaded counter: built once per test process, and a file of its own for each server.
struct AllocationCounter {
    /// Where the server's count is kept (the first 8 bytes, native order).
    let file: URL
    let library: URL

    init() throws {
        library = try Self.built.get()
        file = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-allocations-\(UUID().uuidString)")
    }

    /// What a server started with it needs in its environment.
    var environment: [String: String] {
        ["LD_PRELOAD": library.path, "TESSERA_ALLOCATION_COUNTER": file.path]
    }

    /// Whether the servers under test are release builds (`make test` builds them so).
    static var serversAreOptimised: Bool {
        ProcessHarness.builtProduct("storefront").pathComponents.contains("release")
    }

    /// The allocations the server made so far.
    func count() throws -> UInt64 {
        let bytes = try Data(contentsOf: file)
        guard bytes.count >= 8 else { throw CounterError.notMapped(file.path) }
        return bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    }

    /// Asks for `target` 200 times, then 1,000 times counted, on one connection, and expects
    /// each answer to be `status` and each request to allocate at most `budget` times.
    func expect(
        _ target: String, headers: [String: String] = [:], status: Int = 200, on port: Int, within budget: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let perRequest = try await onThread { () throws -> Int in
            let client = try RawHTTPClient(port: port)
            var head = "GET \(target) HTTP/1.1\r\nHost: localhost\r\n"
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            let request = Array((head + "\r\n").utf8)
            func ask(_ times: Int) throws {
                for _ in 0..<times {
                    try client.send(request)
                    let reply = try client.readReply()
                    guard reply.status == status else { throw CounterError.unexpectedStatus(target, reply.status) }
                }
            }
            try ask(200)
            let before = try count()
            try ask(1_000)
            return Int((try count() - before) / 1_000)
        }
        print("allocations per request: \(target) \(perRequest) (budget \(budget))")
        #expect(
            perRequest <= budget,
            "\(target) allocates \(perRequest) times per request, over its budget of \(budget): raise it in AllocationBudget.swift only with the reason",
            sourceLocation: sourceLocation)
    }

    enum CounterError: Error {
        case notMapped(String)
        case unexpectedStatus(String, Int)
        case compilerFailed(String)
    }

    /// The counter, compiled once per test process from `Tests/AllocationCounter` with the
    /// system's C compiler (`make deps` installs gcc).
    private static let built: Result<URL, any Error> = Result {
        let source = ProcessHarness.packageRoot.appendingPathComponent("Tests/AllocationCounter/allocation_counter.c")
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("libtessera-allocation-counter-\(UUID().uuidString).so")
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        compiler.arguments = ["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", library.path, source.path]
        try compiler.run()
        compiler.waitUntilExit()
        guard compiler.terminationStatus == 0 else { throw CounterError.compilerFailed(source.path) }
        return library
    }
}
