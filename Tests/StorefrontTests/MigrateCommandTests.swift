import Foundation
import GRDB
import TesseraTesting
import Testing

/// `storefront migrate`, which a rolling deploy runs once before replacing the instances: the
/// schema and nothing else, then exit; run again, nothing to do.
@Suite struct MigrateCommandTests {
    func migrate(_ environment: [String: String]) async throws -> (status: Int32, log: String) {
        let settings = ["LOG_LEVEL": "warning"].merging(environment) { $1 }
        let process = try ProcessHarness(
            product: "storefront", environment: settings, arguments: ["migrate"],
            workingDirectory: ProcessHarness.packageRoot)
        return (try await process.waitForExit(timeout: .seconds(120)), process.log)
    }

    @Test func onSQLiteItMakesTheSchemaWithoutDemoDataThenHasNothingToDo() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-migrate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await migrate(["DATA_DIR": data.path])
        #expect(first.status == 0, "\(first.log)")
        #expect(first.log.contains("migrate: applied "), "\(first.log)")
        let database = try DatabaseQueue(path: data.appendingPathComponent("storefront.sqlite").path)
        #expect(try await database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM product") } == 0, "no demo data")
        #expect(try await database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM grdb_migrations") }.map { $0 > 5 } == true)
        try database.close()
        let second = try await migrate(["DATA_DIR": data.path])
        #expect(second.status == 0 && second.log.contains("migrate: the schema is up to date"), "\(second.log)")
    }

    @Test func onPostgreSQLItMigratesANewDatabaseOnceAndAnUnreachableOneIsExit69() async throws {
        let cluster = try #require(ProcessInfo.processInfo.environment["TESSERA_POSTGRES_URL"], "run through scripts/with-postgres.sh (make test)")
        let name = "migrate_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try psql(cluster, "CREATE DATABASE \(name)")
        defer { _ = try? psql(cluster, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        var url = try #require(URLComponents(string: cluster))
        url.path = "/" + name
        let database = try #require(url.string)
        let first = try await migrate(["DATABASE_URL": database])
        #expect(first.status == 0 && first.log.contains("tessera.v3.rate-limits"), "\(first.log)")
        #expect(try psql(database, "SELECT count(*) FROM product") == "0", "no demo data")
        let second = try await migrate(["DATABASE_URL": database])
        #expect(second.status == 0 && second.log.contains("migrate: the schema is up to date"), "\(second.log)")

        let unreachable = try await migrate(["DATABASE_URL": "postgres://postgres@127.0.0.1:1/shop"])
        #expect(unreachable.status == 69, "\(unreachable.log)")
        #expect(unreachable.log.hasPrefix("storefront: cannot migrate the database at"), "\(unreachable.log)")
    }

    /// What `psql -tAc` prints for `sql` on `url`.
    @discardableResult
    func psql(_ url: String, _ sql: String) throws -> String {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", url, "-v", "ON_ERROR_STOP=1", "-tAc", sql]
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
