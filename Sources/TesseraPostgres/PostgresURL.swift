import Foundation

/// Where a PostgreSQL database is, as operators write it: `DATABASE_URL`, in the
/// `postgres://user:password@host:port/database` form that Rails, Phoenix and Heroku use.
///
/// Parsing happens before the server starts, so a typo is a one-line error at start, not a
/// failure on the first request. Errors never repeat the password.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String

    /// Parses `text`; throws ``Invalid`` saying what is wrong.
    public init(_ text: String) throws(Invalid) {
        guard let components = URLComponents(string: text), let scheme = components.scheme else {
            throw Invalid("is not a URL (expected postgres://user:password@host:port/database)")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw Invalid("has the scheme \(scheme.debugDescription); expected postgres:// or postgresql://")
        }
        guard let host = components.host, !host.isEmpty else { throw Invalid("names no host") }
        guard let username = components.user, !username.isEmpty else { throw Invalid("names no user") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else { throw Invalid("names no database (the path after the host)") }
        if let port = components.port, !(1...65_535).contains(port) { throw Invalid("has the port \(port), outside 1–65535") }
        if let query = components.query, !query.isEmpty { throw Invalid("has options (?\(query)), which Tessera does not read") }
        self.host = host
        self.port = components.port ?? 5432
        // URLComponents has already decoded `%40` and friends in these.
        self.username = username
        self.password = components.password
        self.database = database
    }

    /// The URL without its password, for logs.
    public var description: String {
        "postgres://\(username)\(password == nil ? "" : ":…")@\(host):\(port)/\(database)"
    }

    /// The URL as libpq's connection string. TLS is off: the database is expected on a private
    /// network or loopback, as in the deploy section's compose file. Sessions read and write
    /// UTF-8 and give times in UTC.
    public var conninfo: String {
        func quoted(_ value: String) -> String {
            "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        var parts = ["host=\(quoted(host))", "port=\(port)", "user=\(quoted(username))", "dbname=\(quoted(database))"]
        if let password { parts.append("password=\(quoted(password))") }
        parts += ["sslmode=disable", "client_encoding=UTF8", "options='-c TimeZone=UTC'", "application_name=tessera"]
        return parts.joined(separator: " ")
    }

    /// A `DATABASE_URL` that cannot be used, and why.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public let reason: String

        init(_ reason: String) {
            self.reason = reason
        }

        public var description: String { "DATABASE_URL \(reason)" }
    }
}
