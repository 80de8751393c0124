import Foundation

/// Where an SMTP server is, from `SMTP_URL`: `smtp://[user:password@]host[:port]`, port 25 when
/// none is given. Credentials are sent with `AUTH PLAIN`.
///
/// Plain SMTP only: the connection is not encrypted, so point it at a relay on the same host or
/// network (a local Postfix or exim, or a provider's agent) that forwards with TLS.
public struct SMTPServerURL: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let username: String?
    public let password: String?

    /// Why a text is not an SMTP URL, said so that an operator can fix it.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ text: String) throws(Invalid) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw Invalid(description: "SMTP_URL \(text) is not a URL such as smtp://mail.example.com:25.")
        }
        guard scheme == "smtp" else {
            throw Invalid(description: "SMTP_URL \(text): only smtp:// is supported (plain SMTP to a relay on this host or network).")
        }
        guard let host = components.host, !host.isEmpty else { throw Invalid(description: "SMTP_URL \(text) names no host.") }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil else {
            throw Invalid(description: "SMTP_URL \(text) has a path or query; it takes only user, password, host and port.")
        }
        let port = components.port ?? 25
        guard (1...65535).contains(port) else { throw Invalid(description: "SMTP_URL \(text): the port must be 1 to 65535.") }
        self.host = host
        self.port = port
        self.username = components.user?.removingPercentEncoding
        self.password = components.password?.removingPercentEncoding
    }

    /// The URL without its password, for logs.
    public var description: String {
        "smtp://\(username.map { "\($0)@" } ?? "")\(host):\(port)"
    }
}
