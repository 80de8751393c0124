import Foundation
import PostgresTestSupport
import TesseraPostgres
import TesseraTesting
import Testing

/// Heap allocations per request, held to ``AllocationBudget``: the request path's cost, guarded
/// by counts that no busy machine and no other CPU can change, as SwiftNIO's allocation-counter
/// tests do.
///
/// Each server runs with `Tests/AllocationCounter/allocation_counter.c` preloaded, which counts
/// every call into the allocator, thread by thread, in a file this test reads. A route is asked
/// 200 times to warm it up; then the server is left idle for as long as 1,000 requests take (at
/// least a second), and must allocate nothing at all meanwhile, on any thread: background work
/// waits for work (the mail outbox for mail, the heartbeat for a stream), and the loop's own
/// timers allocate nothing. Then the route is asked 1,000 times on the same connection, and the
/// process's count must have grown by an exact multiple of 1,000: every request the same, and
/// nothing else counted. Whatever fails says which threads allocated what.
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
        try await counter.expect("/json", on: port, within: AllocationBudget.json)
        try await counter.expect("/db", on: port, within: AllocationBudget.singleQuery)
        try await counter.expect("/cached-queries?count=20", on: port, within: AllocationBudget.cachedQueries)

        bench.signal(SIGTERM)
        #expect(try await bench.waitForExit() == 0)
        await PostgresTestCluster.drop(url)
    }

    @Test func theStorefrontsPagesStayWithinTheirBudgets() async throws {
        let counter = try AllocationCounter()
        try await TestStorefront.run(environment: counter.environment) { shop in
            // A visitor without a session: the copy kept for everyone.
            try await counter.expect("/products/2", on: shop.port, within: AllocationBudget.keptProductPage)

            // A repeat view with the copy's validator: a 304.
            let eTag = try #require(try await shop.get("/products/2").header("etag"))
            try await counter.expect(
                "/products/2", headers: ["If-None-Match": eTag], status: 304, on: shop.port, within: AllocationBudget.repeatViewNotModified)
            #expect(AllocationBudget.keptProductPage <= AllocationBudget.repeatViewNotModified, "a kept page costs no more than a 304")

            // A signed-in shopper: the page rendered for her, as `make bench` asks it.
            let ada = try await BackOfficeTests.signedIn(shop, "ada@example.com", "ada-lovelace-1815")
            let cookie = try #require(ada.cookie)
            try await counter.expect("/products/2", headers: ["Cookie": cookie], on: shop.port, within: AllocationBudget.signedInProductPage)
        }
    }
}

/// The preloaded counter: built once per test process, and a file of its own for each server.
struct AllocationCounter {
    /// Where the server's counts are kept (allocation_counter.c: the number of threads, then a
    /// slot of 16 bytes per thread, its count and its thread id, in native order).
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

    /// Every thread's count so far, by the thread's place in the file.
    struct Counts {
        /// Slot → (kernel thread id, count).
        let threads: [Int: (thread: Int64, count: UInt64)]

        var total: UInt64 { threads.values.reduce(0) { $0 + $1.count } }

        /// What each thread allocated since `earlier`, the threads that did nothing left out.
        func since(_ earlier: Counts) -> [(slot: Int, thread: Int64, count: UInt64)] {
            threads.keys.sorted().compactMap { slot in
                let now = threads[slot]!
                let grown = now.count - (earlier.threads[slot]?.count ?? 0)
                return grown == 0 ? nil : (slot, now.thread, grown)
            }
        }
    }

    func counts() throws -> Counts {
        let bytes = try Data(contentsOf: file)
        guard bytes.count >= 16 else { throw CounterError.notMapped(file.path) }
        return bytes.withUnsafeBytes { raw in
            let seen = Int(raw.loadUnaligned(as: UInt64.self))
            var threads: [Int: (Int64, UInt64)] = [:]
            for slot in 0..<min(seen, (raw.count - 16) / 16) {
                let count = raw.loadUnaligned(fromByteOffset: 16 + 16 * slot, as: UInt64.self)
                let thread = raw.loadUnaligned(fromByteOffset: 24 + 16 * slot, as: Int64.self)
                threads[slot] = (thread, count)
            }
            return Counts(threads: threads)
        }
    }

    /// Asks for `target` 200 times, then 1,000 times counted, on one connection, then leaves the
    /// server idle for as long as those took (at least a second). Expects each answer to be
    /// `status`; the same allocations for every request, and nothing else, while they ran; none
    /// at all while idle; and at most `budget` allocations per request.
    func expect(
        _ target: String, headers: [String: String] = [:], status: Int = 200, on port: Int, within budget: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        typealias Grown = [(slot: Int, thread: Int64, count: UInt64)]
        let (requests, idle) = try await onThread { () throws -> (Grown, Grown) in
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
            let clock = ContinuousClock()
            let before = try counts()
            let started = clock.now
            try ask(1_000)
            let after = try counts()
            // A server that does nothing allocates nothing: a window as long as the requests
            // took, so that what ran beside them in time would show here too.
            let window = max(clock.now - started, .seconds(1))
            Thread.sleep(forTimeInterval: Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18)
            return (after.since(before), try counts().since(after))
        }
        let total = requests.reduce(0) { $0 + $1.count }
        let perRequest = total / 1_000
        func threads(_ grown: Grown) -> String {
            grown.map { "thread \($0.thread) (\($0.slot)): \($0.count)" }.joined(separator: ", ")
        }
        print("allocations per request: \(target) \(perRequest) (budget \(budget)); 1,000 requests: \(threads(requests)); idle: \(threads(idle))")
        #expect(total > 0, "the counter counted nothing: is it preloaded?", sourceLocation: sourceLocation)
        #expect(
            total % 1_000 == 0,
            "1,000 requests to \(target) made \(total) allocations, not a multiple of 1,000: some request differed, or other work ran meanwhile (\(threads(requests)))",
            sourceLocation: sourceLocation)
        #expect(idle.isEmpty, "the idle server allocated: \(threads(idle))", sourceLocation: sourceLocation)
        #expect(
            perRequest <= UInt64(budget),
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
