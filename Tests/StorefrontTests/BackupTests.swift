import Foundation
import GRDB
import Synchronization
import TesseraTesting
import Testing

/// `storefront backup PATH` against a live storefront: a copy taken in the middle of a burst of
/// checkouts is one consistent snapshot, and bad paths are refused before anything is touched.
@Suite(.serialized) struct BackupTests {
    /// The test is about consistency, not patience: a request may wait a minute for the database
    /// (the copy reads beside the checkouts, and a busy machine slows both).
    static func startStorefront(data: URL) throws -> ProcessHarness {
        try ProcessHarness(
            product: "storefront", environment: TestStorefront.environment(dataDirectory: data),
            workingDirectory: ProcessHarness.packageRoot)
    }

    static func backup(data: URL, to path: String) async throws -> (status: Int32, log: String) {
        let run = try ProcessHarness(product: "storefront", environment: ["DATA_DIR": data.path], arguments: ["backup", path])
        return (try await run.waitForExit(timeout: .seconds(60)), run.log)
    }

    /// Shared by the shoppers and the backup task: when to stop, and how many orders were placed.
    final class Burst: Sendable {
        let stop = Atomic(false)
        let placed = Atomic(0)
    }

    @Test func aBackupTakenDuringCheckoutsIsOneConsistentSnapshot() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let storefront = try Self.startStorefront(data: data)
        let port = try await storefront.waitForPort()

        let before = data.appendingPathComponent("before.sqlite").path
        #expect(try await Self.backup(data: data, to: before).status == 0)
        let initial = try StoreSnapshot(path: before)

        // The shoppers register one at a time, before the burst: registering hashes a password on
        // one low-priority thread, which a busy machine slows, and it is not what is tested here.
        var shoppers: [TestClient] = []
        for shopper in 0..<4 {
            let browser = TestClient(LiveTransport(port: port, timeout: 60))
            let registered = try await browser.submit(
                from: "/register", to: "/register",
                form: "name=Shopper&email=burst-\(shopper)%40example.com&password=long-enough-1")
            try #require(registered.status == 303, "registration answered \(registered.status)")
            shoppers.append(browser)
        }

        let burst = Burst()
        let backupPath = data.appendingPathComponent("during.sqlite").path
        let backupRun = try await withThrowingTaskGroup(of: (Int32, String)?.self) { group in
            for (shopper, browser) in shoppers.enumerated() {
                group.addTask {
                    var round = 0
                    while !burst.stop.load(ordering: .relaxed) {
                        let product = 1 + (shopper + round) % 8
                        round += 1
                        _ = try await browser.submit(from: "/products/\(product)", to: "/cart/items", form: "productID=\(product)&quantity=1")
                        if try await browser.submit(from: "/checkout", to: "/checkout", form: "").status == 303 {
                            burst.placed.add(1, ordering: .relaxed)
                        }
                    }
                    return nil
                }
            }
            group.addTask {
                // Counts of orders, not a clock; a burst that places none fails in minutes, not never.
                func waitUntilPlaced(_ count: Int) async throws {
                    let givingUp = ContinuousClock.now + .seconds(300)
                    while burst.placed.load(ordering: .relaxed) < count {
                        guard ContinuousClock.now < givingUp else {
                            burst.stop.store(true, ordering: .relaxed)
                            throw CheckoutsStopped(placed: burst.placed.load(ordering: .relaxed), awaited: count)
                        }
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                try await waitUntilPlaced(20)
                let outcome = try await Self.backup(data: data, to: backupPath)
                // Checkouts go on after the copy too.
                try await waitUntilPlaced(burst.placed.load(ordering: .relaxed) + 5)
                burst.stop.store(true, ordering: .relaxed)
                return outcome
            }
            var outcome: (Int32, String)?
            for try await result in group { if let result { outcome = result } }
            return try #require(outcome)
        }
        #expect(backupRun.0 == 0, "\(backupRun.1)")
        #expect(backupRun.1.contains("integrity ok"))

        let during = try StoreSnapshot(path: backupPath)
        #expect(during.orders > initial.orders, "the copy holds orders placed during the burst")
        #expect(during.stockAccountedFor == initial.stockAccountedFor, "stock and orders add up in the copy")
        let total = burst.placed.load(ordering: .relaxed)
        #expect(during.orders < initial.orders + total, "and the burst went on after it")
        storefront.signal(SIGTERM)
        #expect(try await storefront.waitForExit() == 0)
    }

    /// The photos go beside the database (`PATH-photos/`), and a shop restored from both serves
    /// the same photo, byte for byte.
    @Test func aBackupCarriesThePhotosAndAShopRestoredFromItServesThem() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-backup-\(UUID().uuidString)")
        let restored = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-restored-\(UUID().uuidString)")
        defer { for folder in [data, restored] { try? FileManager.default.removeItem(at: folder) } }
        try await TestStorefront.seed(data)
        let storefront = try Self.startStorefront(data: data)
        let port = try await storefront.waitForPort()
        let page = try await onThread { try RawHTTPClient.request(port: port, "/products/1") }
        let found = try #require(page.text.firstMatch(of: /\/photos\/([0-9a-f]{16}-\d+\.(?:webp|jpg))/))
        let (photoURL, photoFile) = (String(found.0), String(found.1))
        let original = try await onThread { try RawHTTPClient.request(port: port, photoURL) }
        #expect(original.status == 200 && original.body.count > 100)

        let backup = data.appendingPathComponent("b.sqlite").path
        let (status, log) = try await Self.backup(data: data, to: backup)
        #expect(status == 0, "\(log)")
        #expect(log.contains("photo files to \(backup)-photos"), "\(log)")
        let copied = try Data(contentsOf: URL(fileURLWithPath: "\(backup)-photos/\(photoFile)"))
        #expect(Array(copied) == original.body)
        storefront.signal(SIGTERM)
        #expect(try await storefront.waitForExit() == 0)

        // Restore as STOREFRONT.md says: the database and the photos into an empty data folder.
        try FileManager.default.createDirectory(at: restored, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: backup, toPath: restored.appendingPathComponent("storefront.sqlite").path)
        try FileManager.default.copyItem(atPath: backup + "-photos", toPath: restored.appendingPathComponent("photos").path)
        let again = try Self.startStorefront(data: restored)
        let restoredPort = try await again.waitForPort()
        let served = try await onThread { try RawHTTPClient.request(port: restoredPort, photoURL) }
        #expect(served.status == 200 && served.body == original.body)
        again.signal(SIGTERM)
        #expect(try await again.waitForExit() == 0)
    }

    /// Each is refused with a one-line reason and exit code 64, and the live database and the
    /// running server are untouched.
    @Test func badPathsAreRefusedAndTouchNothing() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let storefront = try Self.startStorefront(data: data)
        let port = try await storefront.waitForPort()
        let live = data.appendingPathComponent("storefront.sqlite").path
        let existing = data.appendingPathComponent("taken.sqlite").path
        #expect(FileManager.default.createFile(atPath: existing, contents: Data("mine".utf8)))
        let liveBefore = try FileManager.default.attributesOfItem(atPath: live)[.size] as? Int
        try FileManager.default.createDirectory(at: data.appendingPathComponent("photos-taken.sqlite-photos"), withIntermediateDirectories: false)

        for (path, message) in [
            ("/no/such/folder/backup.sqlite", "does not exist"),
            ("\(existing)/backup.sqlite", "does not exist"),
            ("/proc/self/backup.sqlite", "cannot be written"),
            (existing, "exists already"),
            (data.appendingPathComponent("photos-taken.sqlite").path, "photos-taken.sqlite-photos exists already"),
        ] {
            let (status, log) = try await Self.backup(data: data, to: path)
            #expect(status == 64, "\(path): \(log)")
            #expect(log.contains(message), "\(path): \(log)")
        }
        let (status, log) = try await Self.backup(data: data.appendingPathComponent("empty"), to: data.appendingPathComponent("b.sqlite").path)
        #expect(status == 64)
        #expect(log.contains("There is no storefront database"))

        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "mine", "an existing file is never overwritten")
        #expect(
            !FileManager.default.fileExists(atPath: data.appendingPathComponent("photos-taken.sqlite").path), "nothing written beside existing photos"
        )
        #expect(try FileManager.default.attributesOfItem(atPath: live)[.size] as? Int == liveBefore)
        #expect(try await onThread { try RawHTTPClient.request(port: port, "/") }.status == 200)
        storefront.signal(SIGTERM)
        #expect(try await storefront.waitForExit() == 0)
    }
}

/// The burst stopped placing orders: what a failing backup test reports instead of hanging.
private struct CheckoutsStopped: Error, CustomStringConvertible {
    let placed: Int
    let awaited: Int
    var description: String { "the shoppers placed \(placed) orders, and \(awaited) were awaited" }
}
