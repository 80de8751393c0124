import Foundation

/// A `storefront` process on a new data directory, for one test: starting it migrates and seeds
/// the database; it is stopped with SIGTERM afterwards, and must exit 0.
public struct TestStorefront: Sendable {
    /// The port the storefront process listens on.
    public let port: Int
    /// Its data directory (`DATA_DIR`), removed after the test: to look at what it stored.
    public let dataDirectory: URL

    /// One `GET` on a new connection.
    public func get(_ target: String) async throws -> TestResponse {
        let port = self.port
        return try await onThread { try RawHTTPClient.request(port: port, target) }
    }

    /// Starts the storefront on a new data directory, with `environment` added to its settings,
    /// runs `body`, then stops it with SIGTERM and fails unless it exits 0; the data directory is
    /// removed either way.
    /// - Parameter startup: how long it may take to listen; seeding the demo photos
    ///   (`DEMO_PHOTOS=seed`) on a machine busy with other suites takes longer than the default.
    public static func run(environment: [String: String] = [:], startup: Duration = .seconds(20),
                           _ body: (TestStorefront) async throws -> Void) async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-shop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let harness = try ProcessHarness(
            product: "storefront",
            // Demo photos drawn when a page asks: a suite starts dozens of storefronts, most of which
            // show no photo (a test of the seed's drawing sets DEMO_PHOTOS=seed).
            environment: ["PORT": "0", "HOST": "127.0.0.1", "DATA_DIR": data.path, "LOG_LEVEL": "notice", "DEMO_PHOTOS": "on-request"]
                .merging(environment) { _, given in given },
            workingDirectory: ProcessHarness.packageRoot
        )
        do {
            try await body(TestStorefront(port: try await harness.waitForPort(timeout: startup), dataDirectory: data))
        } catch {
            harness.signal(SIGTERM)
            _ = try? await harness.waitForExit()
            throw error
        }
        harness.signal(SIGTERM)
        guard try await harness.waitForExit() == 0 else { throw ProcessHarness.HarnessError.didNotExit(log: harness.log) }
    }
}
