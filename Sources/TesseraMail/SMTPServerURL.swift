import Foundation

/// Where an SMTP server is, from `SMTP_URL`, and how the link to it is encrypted:
///
/// - `smtps://[user:password@]host[:port]`: TLS from the first byte (port 465 when none is given).
/// - `smtp://[user:password@]host[:port]`: `STARTTLS` whenever the server offers it (port 25 when
///   none is given); in clear only to a server that does not offer it and only without a
///   password. `?starttls=required` refuses to send in clear at all; `?starttls=never` sends in
///   clear on purpose, to a relay on the same host whose certificate names no host (Debian's
///   Postfix offers STARTTLS with a self-signed one), and never with a password.
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
        /// `smtp://…?starttls=never`: in clear, to a relay on the same host; no password.
        case plain
    }

    /// Why a text is not an SMTP URL, said so that an operator can fix it.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ text: String) throws(Invalid) {
        // Every message names the URL with its password hidden: they go to stderr and logs.
        let shown = Self.redacted(text)
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw Invalid(description: "SMTP_URL \(shown) is not a URL such as smtps://mail.example.com or smtp://mail.example.com:587.")
        }
        guard scheme == "smtp" || scheme == "smtps" else {
            throw Invalid(description: "SMTP_URL \(shown): only smtp:// (STARTTLS) and smtps:// (TLS from the start) are supported.")
        }
        guard let host = components.host, !host.isEmpty else { throw Invalid(description: "SMTP_URL \(shown) names no host.") }
        guard components.path.isEmpty || components.path == "/", components.fragment == nil else {
            throw Invalid(description: "SMTP_URL \(shown) has a path; it takes only user, password, host, port and ?starttls=.")
        }
        var security: Security = scheme == "smtps" ? .implicitTLS : .startTLSWhenOffered
        for item in components.queryItems ?? [] {
            guard item.name == "starttls", scheme == "smtp", let value = item.value, value == "required" || value == "never" else {
                throw Invalid(description: "SMTP_URL \(shown): the only option is ?starttls=required or ?starttls=never, on smtp://.")
            }
            security = value == "required" ? .startTLSRequired : .plain
        }
        if security == .plain, components.user != nil {
            throw Invalid(description: "SMTP_URL \(shown): ?starttls=never sends in clear, so it takes no user or password.")
        }
        let port = components.port ?? (scheme == "smtps" ? 465 : 25)
        guard (1...65535).contains(port) else { throw Invalid(description: "SMTP_URL \(shown): the port must be 1 to 65535.") }
        self.host = host
        self.port = port
        // Decoded once, from the text as written: `URLComponents.user` is decoded already, and
        // decoding it again turned a password's `%2541` into `A` and its `%25zz` into nothing.
        self.username = try Self.decoded(components.percentEncodedUser, "user", shown)
        self.password = try Self.decoded(components.percentEncodedPassword, "password", shown)
        self.security = security
    }

    private static func decoded(_ encoded: String?, _ part: String, _ shown: String) throws(Invalid) -> String? {
        guard let encoded else { return nil }
        guard let decoded = encoded.removingPercentEncoding else {
            throw Invalid(description: "SMTP_URL \(shown): the \(part) has a % that is not followed by two hex digits; write a % as %25.")
        }
        return decoded
    }

    /// `text` with whatever follows the user's `:` in the authority written as `***`, found by
    /// reading the text itself, so that even a URL that does not parse is shown without it.
    static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let authorityEnd = text[schemeEnd.upperBound...].firstIndex { "/?#".contains($0) } ?? text.endIndex
        let authority = text[schemeEnd.upperBound..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
    }

    /// The URL without its password, for logs.
    public var description: String {
        let scheme = security == .implicitTLS ? "smtps" : "smtp"
        let option = security == .startTLSRequired ? "?starttls=required" : security == .plain ? "?starttls=never" : ""
        return "\(scheme)://\(username.map { "\($0)@" } ?? "")\(host):\(port)\(option)"
    }
}
