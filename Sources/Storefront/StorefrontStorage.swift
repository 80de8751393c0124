import Accounts
import Catalog
import Foundation
import GRDB
import Logging
import Tessera
import TesseraHTTP
import TesseraMail
import TesseraPasskeys
import TesseraPostgres
import TesseraSQLite

/// The database the server runs on, opened and migrated: the services wired to its stores, its
/// readiness check, and how it closes after the drain.
struct StorefrontStorage {
    let services: StorefrontServices
    /// The live regions the services publish to: within the process on SQLite, across instances
    /// through the database on PostgreSQL.
    let live: LiveRegions
    let readiness: any ReadinessCheck
    let close: @Sendable () async -> Void

    /// - Parameter eventLoops: the loops the server serves on, where PostgreSQL's connections for
    ///   requests are kept, so that a request and its statements share a thread.
    static func open(
        _ choice: DatabaseOptions.Choice, dataDirectory: String, liveConfiguration: LiveRegions.Configuration,
        mailSender: MailAddress?, relyingParty: PasskeyRelyingParty, hasher: PasswordHasher, eventLoops: EventLoops,
        logger: Logger
    ) async throws -> StorefrontStorage {
        switch choice {
        case .sqlite:
            let lockWait = FileLockWait()
            let database = MeasuredDatabase(
                try await StorefrontDatabase.open(dataDirectory: dataDirectory, lockWait: lockWait, hasher: hasher),
                lockWait: lockWait)
            let live = LiveRegions(configuration: liveConfiguration, logger: logger)
            return StorefrontStorage(
                services: StorefrontServices(
                    database: database, topics: live, mailSender: mailSender, relyingParty: relyingParty,
                    hasher: hasher, photoFolder: StorefrontDatabase.photoFolder(in: dataDirectory)), live: live,
                readiness: DatabaseReadiness(database: database), close: {})
        case .postgres(let text, let poolSize, let queueLimits):
            let url: PostgresURL
            do {
                url = try PostgresURL(text)
            } catch {
                throw UnavailableAtStart(message: error.description)
            }
            let connections = PostgresConnections(url: url, size: poolSize, queueLimits: queueLimits, eventLoops: eventLoops, logger: logger)
            do {
                try await StorefrontPostgres.prepare(connections, hasher: hasher)
            } catch {
                // Unreachable, or reachable but refusing (a missing database, no rights on the
                // schema): either way this instance cannot serve.
                await connections.shutdown()
                throw UnavailableAtStart(message: "cannot use the database at \(url): \(DatabaseUnavailable(error).reason)")
            }
            logger.info("database: PostgreSQL", metadata: ["url": "\(url)", "pool": "\(poolSize)"])
            let live = LiveRegions(configuration: liveConfiguration, bus: PostgresTopicBus(connections: connections, logger: logger), logger: logger)
            return StorefrontStorage(
                services: StorefrontServices(
                    postgres: connections, topics: live, mailSender: mailSender, relyingParty: relyingParty,
                    hasher: hasher), live: live,
                readiness: PostgresReadiness(connections: connections), close: { await connections.shutdown() })
        }
    }
}

/// Readiness on PostgreSQL: a connection answers a query. When the database goes away, `/readyz`
/// turns 503 and the balancer stops sending; when it is back, the next check connects again.
struct PostgresReadiness: ReadinessCheck {
    let connections: PostgresConnections
    let name = "database"

    func check() async throws {
        _ = try await connections.query("SELECT 1", within: .outsideRequest)
    }
}
