import Foundation
import Hummingbird
import PostgresNIO

/// What the environment configures: PORT, HOST, DATABASE_URL and POOL_SIZE.
struct Settings {
    var host: String
    var port: Int
    var database: PostgresClient.Configuration
    /// Connections the pool may open: TechEmpower's entry sets 200.
    var poolSize: Int

    init(environment env: Environment = Environment()) throws {
        self.host = env.get("HOST") ?? "127.0.0.1"
        self.port = env.get("PORT", as: Int.self) ?? 8080
        guard let url = env.get("DATABASE_URL") else {
            throw SettingsError("DATABASE_URL is not set (postgres://user:password@host:port/db)")
        }
        self.database = try Self.postgresConfiguration(url)
        self.poolSize = env.get("POOL_SIZE", as: Int.self) ?? 200
        guard self.poolSize >= 1 else { throw SettingsError("POOL_SIZE must be at least 1") }
        self.database.options.maximumConnections = self.poolSize
    }

    /// postgres://user:password@host:port/db, TLS off.
    static func postgresConfiguration(_ string: String) throws -> PostgresClient.Configuration {
        guard let url = URLComponents(string: string),
            url.scheme == "postgres" || url.scheme == "postgresql",
            let host = url.host, !host.isEmpty,
            let user = url.user, !user.isEmpty
        else {
            throw SettingsError("DATABASE_URL is not postgres://user:password@host:port/db")
        }
        let path = url.path
        let database = path.hasPrefix("/") ? String(path.dropFirst()) : path
        return PostgresClient.Configuration(
            host: host,
            port: url.port ?? 5432,
            username: user,
            password: url.password,
            database: database.isEmpty ? nil : database,
            tls: .disable
        )
    }

    /// The same server and credentials, for the one connection that loads the cache at start.
    var connectionConfiguration: PostgresConnection.Configuration {
        PostgresConnection.Configuration(
            host: self.database.host ?? "127.0.0.1",
            port: self.database.port ?? 5432,
            username: self.database.username,
            password: self.database.password,
            database: self.database.database,
            tls: .disable
        )
    }
}

struct SettingsError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Int {
    /// TechEmpower's count rule after parsing: below 1 is 1, above 500 is 500.
    func bound(_ minValue: Int, _ maxValue: Int) -> Int {
        Swift.min(maxValue, Swift.max(minValue, self))
    }
}

extension Request {
    /// A count parameter: missing, empty or not a number is 1; clamped to 1...500.
    func count(_ name: String) -> Int {
        (self.uri.queryParameters.get(name, as: Int.self) ?? 1).bound(1, 500)
    }
}
