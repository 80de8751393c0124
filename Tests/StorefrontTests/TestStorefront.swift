import Foundation
import TesseraTesting

/// A `storefront` process on a new data directory, for one test: starting it migrates and seeds
/// the database (without photos, unless `storefront seed` ran first); it is stopped with SIGTERM
/// afterwards, and must exit 0.
struct TestStorefront: Sendable {
    /// The port the storefront process listens on.
    let port: Int
    /// Its data directory (`DATA_DIR`), removed after the test: to look at what it stored.
    let dataDirectory: URL
    /// The process, for what it logged so far (`harness.log`).
    let harness: ProcessHarness

    /// One `GET` on a new connection.
    func get(_ target: String) async throws -> TestResponse {
        let port = self.port
        return try await onThread { try RawHTTPClient.request(port: port, target) }
    }

    /// The settings every test's storefront starts from: an ephemeral port on loopback, the data
    /// directory, the longest database patience (60 s), cheap password hashes (1,000 rounds) and
    /// rate limits no test reaches by accident (every test shopper comes from 127.0.0.1).
    /// A test about a patient database sets its own `DATABASE_TIMEOUT`, one about limits its
    /// own limits; any other must not meet the 2 s default on a busy machine, nor a sign-in's
    /// 600,000 rounds on a low-priority thread that a busy machine starves past the 30 s
    /// response deadline.
    static func environment(dataDirectory: URL, logLevel: String = "notice") -> [String: String] {
        [
            "PORT": "0", "HOST": "127.0.0.1", "DATA_DIR": dataDirectory.path, "LOG_LEVEL": logLevel, "DATABASE_TIMEOUT": "60",
            "PASSWORD_HASH_ROUNDS": Self.passwordHashRounds, "REGISTRATION_LIMIT": "100000/hour", "CHECKOUT_LIMIT": "100000/minute",
        ]
    }

    /// What test storefronts and their seeds hash passwords with.
    static let passwordHashRounds = "1000"

    /// Starts the storefront on a new data directory, with `environment` added to its settings,
    /// runs `body`, then stops it with SIGTERM and fails unless it exits 0; the data directory is
    /// removed either way.
    /// - Parameters:
    ///   - seeded: whether `storefront seed` fills the data directory first, demo photos and all.
    ///   - startup: how long it may take to listen.
    static func run(
        environment: [String: String] = [:], seeded: Bool = false, startup: Duration = .seconds(20),
        _ body: (TestStorefront) async throws -> Void
    ) async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-shop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let settings = Self.environment(dataDirectory: data).merging(environment) { _, given in given }
        if seeded { try await seed(data) }
        let harness = try ProcessHarness(
            product: "storefront",
            environment: settings,
            workingDirectory: ProcessHarness.packageRoot
        )
        do {
            try await body(TestStorefront(port: try await harness.waitForPort(timeout: startup), dataDirectory: data, harness: harness))
        } catch {
            harness.signal(SIGTERM)
            _ = try? await harness.waitForExit()
            throw error
        }
        harness.signal(SIGTERM)
        let status = try await harness.waitForExit()
        guard status == 0 else { throw ProcessHarness.HarnessError.failed(status: status, log: harness.log) }
    }

    /// Makes `folder` (which must not exist) a data directory `storefront seed` filled: the demo
    /// shop with its photos, copied from one seeded once per test process.
    static func seed(_ folder: URL) async throws {
        try FileManager.default.copyItem(at: try await SeededDataDirectory.shared.folder(), to: folder)
    }
}

/// One data directory that `storefront seed` filled, made once per test process and copied for
/// each storefront that asks for the demo photos: seeding draws 40 photos, a copy takes
/// milliseconds.
private actor SeededDataDirectory {
    static let shared = SeededDataDirectory()

    private var made: Task<URL, any Error>?

    func folder() async throws -> URL {
        if let made { return try await made.value }
        let making = Task {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-seeded-\(UUID().uuidString)")
            let seed = try ProcessHarness(
                product: "storefront",
                environment: [
                    "DATA_DIR": folder.path, "LOG_LEVEL": "notice",
                    "PASSWORD_HASH_ROUNDS": TestStorefront.passwordHashRounds,
                ], arguments: ["seed"],
                workingDirectory: ProcessHarness.packageRoot)
            let status = try await seed.waitForExit(timeout: .seconds(300))
            guard status == 0 else { throw ProcessHarness.HarnessError.failed(status: status, log: seed.log) }
            return folder
        }
        made = making
        return try await making.value
    }
}
