import ArgumentParser
import Foundation
import Tessera
import TesseraPostgres

/// Which database the storefront runs on. Without `DATABASE_URL`, SQLite in the data directory,
/// as on one machine; with it, PostgreSQL, which several instances can share.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("database-url"),
        help:
            "postgres://user:password@host:port/database, for instances that share one database. [env: DATABASE_URL] (default: SQLite in the data folder)"
    )
    var databaseURL: String?

    @Option(name: .customLong("database-pool-size"), help: "PostgreSQL connections per instance. [env: DATABASE_POOL_SIZE] (default: 10)")
    var poolSize: Int?

    @Option(
        name: .customLong("database-queue-limit"),
        help:
            "PostgreSQL statements one event loop may hold waiting for the database; past it a page is a 503 at once. [env: DATABASE_QUEUE_LIMIT] (default: 4096)"
    )
    var queueLimit: Int?

    @Option(
        name: .customLong("database-timeout"),
        help:
            "Seconds a request may wait for the database in all (connections, locks, answers) before it is a 503. [env: DATABASE_TIMEOUT] (default: 2)"
    )
    var timeout: String?

    /// How long a request waits for its database, from `--database-timeout` or
    /// `DATABASE_TIMEOUT`: seconds, from 0.1 to 60.
    func requestTimeout(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Duration {
        guard let raw = OptionEnvironment(environment).string(timeout, "DATABASE_TIMEOUT") else { return .seconds(2) }
        guard let seconds = Double(raw), seconds.isFinite, (0.1...60).contains(seconds) else {
            throw ValidationError("DATABASE_TIMEOUT=\(raw) is not valid: give the seconds a request may wait for the database, from 0.1 to 60.")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// Where the database is, once the options and the environment are read.
    enum Choice: Equatable {
        case sqlite
        /// The URL's text is checked when the server connects: a malformed one is an
        /// unavailable database (exit 69), as the deploy contract says.
        case postgres(url: String, poolSize: Int, queueLimits: PostgresQueueLimits)
    }

    /// Flags win over variables. A server on PostgreSQL (`forServing`) needs `SESSION_SECRET`:
    /// every instance must sign and check session cookies with one secret, and a secret made in
    /// one instance's data folder would sign its visitors out on every other.
    func resolve(forServing: Bool = true, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Choice {
        let options = OptionEnvironment(environment)
        guard let url = options.string(databaseURL, "DATABASE_URL") else { return .sqlite }
        let size = try options.value(poolSize, "DATABASE_POOL_SIZE", default: 10) { Int($0) }
        guard (2...500).contains(size) else { throw ValidationError("The database pool size must be between 2 and 500.") }
        let queueLimit = try options.value(queueLimit, "DATABASE_QUEUE_LIMIT", default: PostgresQueueLimits().perLoop) { Int($0) }
        guard (1...1_000_000).contains(queueLimit) else {
            throw ValidationError("The database queue limit must be between 1 and 1000000 statements per event loop.")
        }
        var limits = PostgresQueueLimits()
        limits.perLoop = queueLimit
        limits.perConnection = max(limits.window, queueLimit / 2)
        guard forServing else { return .postgres(url: url, poolSize: size, queueLimits: limits) }
        guard let secret = environment["SESSION_SECRET"], !secret.isEmpty else {
            throw ValidationError("DATABASE_URL needs SESSION_SECRET: instances that share a database must sign sessions with one secret.")
        }
        return .postgres(url: url, poolSize: size, queueLimits: limits)
    }
}
