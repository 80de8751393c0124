import Foundation

/// Where an SMTP server is, from `SMTP_URL`, and how the link to it is encrypted:
///
/// - `smtps://[user:password@]host[:port]`: TLS from the first byte (port 465 when none is given).
/// - `smtp://[user:password@]host[:port]`: `STARTTLS` whenever the server offers it (port 25 when
///   none is given); in clear only to a server that does not offer it and only without a
///   password. `?starttls=required` refuses to send in clear at all.
///
/// Credentials are sent with `AUTH PLAIN`, and only over TLS. The server's certificate is always
/// verified, against the system's CA store or the file `SMTP_CA_FILE` names.
public struct SMTPServerURL: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let username: String?
    public let password: String?
    public let security: Security

    /// How the link is encrypted.
    public enum Security: Sendable, Equatable {
        /// `smtps://`: TLS before the greeting.
        case implicitTLS
        /// `smtp://…?starttls=required`: `STARTTLS`, or no mail at all.
        case startTLSRequired
        /// `smtp://`: `STARTTLS` when offered; in clear to a server that offers none, unless
        /// there is a password to send.
        case startTLSWhenOffered
    }

    /// Why a text is not an SMTP URL, said so that an operator can fix it.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ text: String) throws(Invalid) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw Invalid(description: "SMTP_URL \(text) is not a URL such as smtps://mail.example.com or smtp://mail.example.com:587.")
        }
        guard scheme == "smtp" || scheme == "smtps" else {
            throw Invalid(description: "SMTP_URL \(text): only smtp:// (STARTTLS) and smtps:// (TLS from the start) are supported.")
        }
        guard let host = components.host, !host.isEmpty else { throw Invalid(description: "SMTP_URL \(text) names no host.") }
        guard components.path.isEmpty || components.path == "/", components.fragment == nil else {
            throw Invalid(description: "SMTP_URL \(text) has a path; it takes only user, password, host, port and ?starttls=required.")
        }
        var security: Security = scheme == "smtps" ? .implicitTLS : .startTLSWhenOffered
        for item in components.queryItems ?? [] {
            guard item.name == "starttls", item.value == "required", scheme == "smtp" else {
                throw Invalid(description: "SMTP_URL \(text): the only option is ?starttls=required, on smtp://.")
            }
            security = .startTLSRequired
        }
        let port = components.port ?? (scheme == "smtps" ? 465 : 25)
        guard (1...65535).contains(port) else { throw Invalid(description: "SMTP_URL \(text): the port must be 1 to 65535.") }
        self.host = host
        self.port = port
        self.username = components.user?.removingPercentEncoding
        self.password = components.password?.removingPercentEncoding
        self.security = security
    }

    /// Whether this mail may only go over TLS: the URL says so, or there is a password to send.
    var requiresTLS: Bool {
        security != .startTLSWhenOffered || username != nil
    }

    /// The URL without its password, for logs.
    public var description: String {
        let scheme = security == .implicitTLS ? "smtps" : "smtp"
        return "\(scheme)://\(username.map { "\($0)@" } ?? "")\(host):\(port)\(security == .startTLSRequired ? "?starttls=required" : "")"
    }
}
