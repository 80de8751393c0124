import Foundation

/// Where a PostgreSQL database is, as operators write it: `DATABASE_URL`, in the
/// `postgres://user:password@host:port/database` form that Rails, Phoenix and Heroku use, with
/// libpq's TLS options when the link needs them: `?sslmode=verify-full&sslrootcert=/path/ca.pem`.
///
/// Parsing happens before the server starts, so a typo is a one-line error at start, not a
/// failure on the first request. Errors never repeat the password.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    /// How the link is encrypted, as libpq's `sslmode` says; libpq's own default, ``TLSMode/prefer``,
    /// when the URL does not say.
    public var tlsMode: TLSMode
    /// libpq's `sslrootcert`: the file of CA certificates that ``TLSMode/verifyCA`` and
    /// ``TLSMode/verifyFull`` check the server's certificate against, for a private CA. Without it
    /// libpq reads `~/.postgresql/root.crt`.
    public var rootCertificate: String?

    /// libpq's `sslmode`, from no encryption to a certificate checked against the host name.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Never encrypted.
        case disable
        /// Encrypted only if the server insists.
        case allow
        /// Encrypted when the server can, not verified: libpq's default.
        case prefer
        /// Always encrypted, the certificate not verified.
        case require
        /// Always encrypted, the certificate signed by a trusted CA.
        case verifyCA = "verify-ca"
        /// Always encrypted, the certificate signed by a trusted CA and naming the host: the only
        /// mode that stops a machine in the middle.
        case verifyFull = "verify-full"
    }

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
        var tlsMode = TLSMode.prefer
        var rootCertificate: String?
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw Invalid("has sslmode=\(item.value ?? ""); expected one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tlsMode = mode
            case "sslrootcert":
                guard let path = item.value, !path.isEmpty else { throw Invalid("has an empty sslrootcert") }
                rootCertificate = path
            default:
                throw Invalid("has the option \(item.name), which Tessera does not read (it reads sslmode and sslrootcert)")
            }
        }
        // libpq reads sslrootcert only to verify, and only verify-ca and verify-full verify: under
        // prefer or require an active attacker stands in for the server, while the URL looks
        // protected. Refused at start rather than trusted by mistake (issue 61, finding 5).
        if rootCertificate != nil, tlsMode != .verifyCA, tlsMode != .verifyFull {
            throw Invalid(
                "has sslrootcert with sslmode=\(tlsMode.rawValue), under which the server's certificate is not checked; "
                    + "use sslmode=verify-full (or verify-ca)")
        }
        self.host = host
        self.port = components.port ?? 5432
        // URLComponents has already decoded `%40` and friends in these.
        self.username = username
        self.password = components.password
        self.database = database
        self.tlsMode = tlsMode
        self.rootCertificate = rootCertificate
    }

    /// The URL without its password, for logs; TLS options only when set.
    public var description: String {
        var options: [String] = []
        if tlsMode != .prefer { options.append("sslmode=\(tlsMode.rawValue)") }
        if let rootCertificate { options.append("sslrootcert=\(rootCertificate)") }
        return "postgres://\(username)\(password == nil ? "" : ":…")@\(host):\(port)/\(database)"
            + (options.isEmpty ? "" : "?" + options.joined(separator: "&"))
    }

    /// The URL as libpq's connection string, TLS as the URL asks. Sessions read and write UTF-8
    /// and give times in UTC. TCP keepalives probe a connection idle for 30 s, and data left
    /// unacknowledged for 30 s ends it: a peer that vanished without closing (a partition, a
    /// host gone) is noticed in under a minute, not after the kernel's two hours.
    public var conninfo: String {
        func quoted(_ value: String) -> String {
            "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        var parts = ["host=\(quoted(host))", "port=\(port)", "user=\(quoted(username))", "dbname=\(quoted(database))"]
        if let password { parts.append("password=\(quoted(password))") }
        parts.append("sslmode=\(tlsMode.rawValue)")
        if let rootCertificate { parts.append("sslrootcert=\(quoted(rootCertificate))") }
        parts += ["client_encoding=UTF8", "options='-c TimeZone=UTC'", "application_name=tessera"]
        parts += ["keepalives=1", "keepalives_idle=30", "keepalives_interval=10", "keepalives_count=3", "tcp_user_timeout=30000"]
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
