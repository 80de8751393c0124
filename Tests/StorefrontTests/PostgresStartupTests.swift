import Foundation
import Synchronization
import TesseraTesting
import Testing

/// The storefront on PostgreSQL as an operator runs it: `DATABASE_URL` chooses the database, a
/// database it cannot use stops it at start (exit 69, one line), and an outage while it runs is a
/// 503 that ends when the database is back, with no restart.
@Suite(.serialized) struct PostgresStartupTests {
    static let secret = String(repeating: "s", count: 40)

    func start(_ extra: [String: String]) throws -> ProcessHarness {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-data-\(UUID().uuidString)")
        let environment = TestStorefront.environment(dataDirectory: data, logLevel: "info").merging(extra) { $1 }
        return try ProcessHarness(product: "storefront", environment: environment, workingDirectory: ProcessHarness.packageRoot)
    }

    /// A database the server cannot use is refused before it serves: one line that says why,
    /// and exit code 69 (EX_UNAVAILABLE), neither a crash nor a hang.
    @Test func aDatabaseItCannotUseStopsItAtStartWithExit69() async throws {
        let cluster = try #require(ProcessInfo.processInfo.environment["TESSERA_POSTGRES_URL"], "run through scripts/with-postgres.sh (make test)")
        let hostAndDatabase = try #require(cluster.split(separator: "@", maxSplits: 1).last)
        let refusing = RefusingLoopbackPort()
        defer { withExtendedLifetime(refusing) {} }
        let cases: [(url: String, message: String)] = [
            ("postgres://postgres:wrong-password@\(hostAndDatabase)", "password authentication failed"),
            ("postgres://postgres@127.0.0.1:\(refusing.port)/shop", "Connection refused"),
            ("mysql://root@127.0.0.1/shop", "expected postgres://"),
            ("postgres://127.0.0.1/shop", "names no user"),
            ("postgres://postgres@127.0.0.1:5432", "names no database"),
            ("not a url at all", "is not a URL"),
        ]
        for (url, message) in cases {
            let storefront = try start(["DATABASE_URL": url, "SESSION_SECRET": Self.secret])
            #expect(try await storefront.waitForExit() == 69, "\(url)")
            let lines = storefront.log.split(separator: "\n").filter { !$0.isEmpty }
            #expect(lines.count == 1 && lines[0].hasPrefix("storefront: ") && lines[0].contains(message), "\(url): \(storefront.log)")
            #expect(!storefront.log.contains("wrong-password"), "the password is never repeated")
        }
    }

    /// Instances that share a database must share the session secret, and the pool must be a
    /// size that works: usage errors (exit 64), before any connection is tried.
    @Test(arguments: [
        (["SESSION_SECRET": ""], "DATABASE_URL needs SESSION_SECRET"),
        (["SESSION_SECRET": Self.secret, "DATABASE_POOL_SIZE": "many"], "DATABASE_POOL_SIZE=many is not valid"),
        (["SESSION_SECRET": Self.secret, "DATABASE_POOL_SIZE": "1"], "between 2 and 500"),
        (["SESSION_SECRET": Self.secret, "DATABASE_QUEUE_LIMIT": "lots"], "DATABASE_QUEUE_LIMIT=lots is not valid"),
        (["SESSION_SECRET": Self.secret, "DATABASE_QUEUE_LIMIT": "0"], "between 1 and 1000000"),
    ])
    func aSharedDatabaseMisconfiguredIsAUsageError(environment: [String: String], message: String) async throws {
        let storefront = try start(environment.merging(["DATABASE_URL": "postgres://postgres@127.0.0.1/shop"]) { $1 })
        #expect(try await storefront.waitForExit() == 64)
        let lines = storefront.log.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 1 && lines[0].contains(message), "\(storefront.log)")
    }

    /// The database stops under a running server: pages answer 503 with the error page, and
    /// `/readyz` turns 503 so a balancer stops sending; when it starts again, the same server
    /// answers again. A cluster of its own, so that stopping it disturbs no other test.
    @Test func anOutageIsA503AndTheServerRecoversWithoutARestart() async throws {
        try await PrivatePostgresCluster.run { cluster in try await outage(of: cluster) }
    }

    /// PostgreSQL restarted under load, its backends ended (`-m fast`) or killed (`-m
    /// immediate`) while pages' statements are on the wire and others queue on connections
    /// still opening: the process lives, every request gets an answer (the page, or the 503
    /// page while the database is away), and the first page after the restart is whole again.
    @Test(arguments: ["restart-fast", "restart-immediate"])
    func aRestartUnderLoadLeavesEveryRequestAnswered(action: String) async throws {
        try await PrivatePostgresCluster.run { cluster in
            let storefront = try start(["DATABASE_URL": cluster.url, "SESSION_SECRET": Self.secret, "DATABASE_POOL_SIZE": "4"])
            defer { if storefront.process.exitStatusIfEnded == nil { storefront.signal(SIGKILL) } }
            let port = try await storefront.waitForPort()
            let done = StopFlag()
            // Searches no kept page answers (each its own query text), so each reads the database.
            let load = Task {
                try await withThrowingTaskGroup(of: [Int].self) { group in
                    for worker in 0..<24 {
                        group.addTask {
                            try await onThread {
                                var statuses: [Int] = []
                                while !done.isSet {
                                    let target = "/?q=oak\(worker)x\(statuses.count)"
                                    statuses.append(try RawHTTPClient.request(port: port, target).status)
                                }
                                return statuses
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            try await cluster.control(action)
            try await Task.sleep(for: .milliseconds(300))
            done.set()
            let statuses = try await load.value
            let counts = Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count)
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(counts)")
            #expect(counts[200, default: 0] > 0, "\(counts)")
            #expect(storefront.process.exitStatusIfEnded == nil, "the server lives")
            let after = try await onThread { try RawHTTPClient.request(port: port, "/?q=walnut") }
            #expect(after.status == 200, "the first page after the restart: \(after.status)")
            storefront.signal(SIGTERM)
            #expect(try await storefront.waitForExit() == 0)
        }
    }

    /// Whether `probe` gives `expected` within 10 s, asked every 100 ms.
    private func eventually(_ expected: Int, _ probe: () async throws -> Int) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try await probe() == expected { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    private func outage(of cluster: PrivatePostgresCluster) async throws {
        // The default patience, since the outage must turn into 503s within it.
        let storefront = try start(["DATABASE_URL": cluster.url, "SESSION_SECRET": Self.secret, "DATABASE_TIMEOUT": "2"])
        defer { if storefront.process.exitStatusIfEnded == nil { storefront.signal(SIGKILL) } }
        let port = try await storefront.waitForPort()
        func get(_ target: String) async throws -> TestResponse {
            try await onThread { try RawHTTPClient.request(port: port, target) }
        }
        #expect(try await get("/products/2").status == 200)
        #expect(try await get("/readyz").status == 200)

        try await cluster.control("stop")
        let product = try await get("/products/2")
        #expect(
            product.status == 503 && product.header("content-type") == "text/html; charset=utf-8" && product.text.contains("unavailable"),
            "\(product.status) \(product.text.prefix(200))")
        #expect(product.header("retry-after") == "5")
        // Readiness answers from its latest run of the checks, at most a second old, so it
        // turns with the next run.
        #expect(try await eventually(503) { try await get("/readyz").status }, "not ready once a run has failed")
        #expect(try await get("/healthz").status == 200, "alive: a restart would not help")

        try await cluster.control("start")
        #expect(try await get("/products/2").status == 200, "the next request connects again")
        #expect(try await eventually(200) { try await get("/readyz").status })
        storefront.signal(SIGTERM)
        #expect(try await storefront.waitForExit() == 0)
    }
}

/// A throwaway PostgreSQL cluster of the test's own, from the same script `make test` uses: it
/// runs while the script's command waits for a line on its input.
///
/// Its waits (for the cluster to start, and to be deleted) happen on threads of their own or by
/// polling with `Task.sleep`: a test that blocked the cooperative pool for the seconds they take
/// would stall every other test's server meanwhile.
final class PrivatePostgresCluster: @unchecked Sendable {
    let url: String
    private let controlScript: String
    private let process = Process()
    private let input = Pipe()

    /// Runs `body` with a cluster started for it, and stops and deletes the cluster afterwards,
    /// whether `body` returns or throws.
    static func run<T: Sendable>(_ body: (PrivatePostgresCluster) async throws -> T) async throws -> T {
        let cluster = try await onThread { try PrivatePostgresCluster() }
        do {
            let result = try await body(cluster)
            await cluster.stop()
            return result
        } catch {
            await cluster.stop()
            throw error
        }
    }

    private init() throws {
        let output = Pipe()
        process.executableURL = ProcessHarness.packageRoot.appendingPathComponent("scripts/with-postgres.sh")
        process.arguments = ["sh", "-c", #"printf '%s\n%s\n' "$TESSERA_POSTGRES_URL" "$TESSERA_POSTGRES_CTL"; read line"#]
        process.currentDirectoryURL = ProcessHarness.packageRoot
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var text = ""
        while text.filter({ $0 == "\n" }).count < 2 {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw Failed() }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let lines = text.split(separator: "\n").map(String.init)
        url = lines[0]
        controlScript = lines[1]
    }

    /// `stop` or `start` the cluster, waiting until it has. Spawned and reaped by hand on a
    /// thread of its own: Foundation's `waitUntilExit` on a test's thread missed the exit of
    /// `pg_ctl start`, whose server lives on.
    func control(_ action: String) async throws {
        let script = controlScript
        let status = try await onThread { () -> Int32 in
            var pid: pid_t = 0
            let arguments: [UnsafeMutablePointer<CChar>?] = [script, action].map { text in text.withCString { strdup($0) } } + [nil]
            defer { arguments.forEach { free($0) } }
            guard posix_spawn(&pid, script, nil, nil, arguments, environ) == 0 else { throw Failed() }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            return status
        }
        guard status == 0 else { throw Failed() }
    }

    /// Ends the script (its `read` gets end of file), which stops the cluster and deletes it;
    /// waits up to 30 s, polling the kernel (`exitStatusIfEnded`), since Foundation can miss an exit here.
    private func stop() async {
        try? input.fileHandleForWriting.close()
        let deadline = ContinuousClock.now + .seconds(30)
        while process.exitStatusIfEnded == nil, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        if process.exitStatusIfEnded == nil { process.terminate() }
    }

    struct Failed: Error {}
}

/// Tells the load's threads to stop.
private final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
