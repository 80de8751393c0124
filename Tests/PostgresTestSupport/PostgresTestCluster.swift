import Foundation
public import Logging
import Tessera
public import TesseraPostgres
public import Testing

/// The two databases every store implements. The conformance tests run once for each, so a
/// store that passes on one and fails on the other is a failed test.
public enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    public var testDescription: String { rawValue }
}

/// The throwaway cluster `scripts/with-postgres.sh` started, one database per test in it.
public enum PostgresTestCluster {
    public static let logger = Logger(label: "tessera.tests.postgres")

    struct NotConfigured: Error, CustomStringConvertible {
        var description: String {
            "TESSERA_POSTGRES_URL is not set: run the tests with `make test`, or `scripts/with-postgres.sh swift test`, which start a throwaway PostgreSQL"
        }
    }

    /// A pool on `url` for a test that is not about patience: a minute to connect and two for a
    /// statement, not 5 s and 15 s. On a busy 2-core host, with dozens of tests sharing the
    /// cluster, a search once took longer than 15 s to answer.
    public static func connections(_ url: PostgresURL, size: Int) -> PostgresConnections {
        PostgresConnections(url: url, size: size, connectTimeout: .seconds(60), statementTimeout: .seconds(120), logger: logger)
    }

    /// The cluster's URL, from the environment.
    public static func url() throws -> PostgresURL {
        guard let text = ProcessInfo.processInfo.environment["TESSERA_POSTGRES_URL"] else { throw NotConfigured() }
        return try PostgresURL(text)
    }

    /// The cluster's URL as a `DATABASE_URL` for `database`, its options (`sslmode`) kept: for a
    /// server process a test starts.
    public static func databaseURL(_ database: String) throws -> String {
        guard let text = ProcessInfo.processInfo.environment["TESSERA_POSTGRES_URL"] else { throw NotConfigured() }
        var components = URLComponents(string: text)
        components?.path = "/" + database
        guard let url = components?.string else { throw NotConfigured() }
        return url
    }

    /// A new empty database in the cluster, and its URL.
    public static func newDatabase() async throws -> PostgresURL {
        var url = try url()
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await administer(url) { try $0.execute(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)")) }
        url.database = name
        return url
    }

    /// Drops a database `newDatabase()` made, even with connections still open.
    public static func drop(_ database: PostgresURL) async {
        guard let url = try? url() else { return }
        try? await administer(url) { try $0.execute(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(database.database) WITH (FORCE)")) }
    }

    private static func administer(_ url: PostgresURL, _ body: @escaping @Sendable (BlockingConnection) throws -> Void) async throws {
        let pool = connections(url, size: 1)
        do {
            try await pool.withoutTransaction(within: .outsideRequest, body)
        } catch {
            await pool.shutdown()
            throw error
        }
        await pool.shutdown()
    }
}

/// A database of a test's own in the cluster, migrated, with a pool on it; ``remove()`` shuts
/// the pool and drops the database. A failed migration removes it before throwing.
public struct PostgresTestDatabase: Sendable {
    public let url: PostgresURL
    public let connections: PostgresConnections

    public static func make(migrator: PostgresMigrator = PostgresMigrator(), poolSize: Int = 4) async throws -> PostgresTestDatabase {
        let url = try await PostgresTestCluster.newDatabase()
        let database = PostgresTestDatabase(url: url, connections: PostgresTestCluster.connections(url, size: poolSize))
        do {
            try await migrator.migrate(database.connections)
        } catch {
            await database.remove()
            throw error
        }
        return database
    }

    public func remove() async {
        await connections.shutdown()
        await PostgresTestCluster.drop(url)
    }

    /// The rows of `query`, read on this thread through a connection of its own, outside the
    /// pool: for a test that must look from synchronous code (a callback), as another process
    /// would.
    public func rowsBlocking(_ query: PostgresQuery) throws -> [PostgresRow] {
        try BlockingConnection(url: url, timeout: .seconds(5)).rows(query)
    }
}
