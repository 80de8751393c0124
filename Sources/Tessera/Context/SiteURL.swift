/// Where the site is reached, `https://shop.example.com`, for the few things that must name it
/// in full: a sitemap's and a robots file's URLs, canonical links.
///
/// Set it (`PUBLIC_URL`) in production. Without it, ``RequestContext/absoluteURL(for:)`` uses the
/// request's own `Host`, which is right for a local run but is the client's to choose.
public struct SiteURL: Sendable, Equatable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host and, when not the scheme's default, the port: `shop.example.com:8443`.
    public let authority: String

    /// `string` when it is an `http` or `https` origin (a host, perhaps a port, no path, query or
    /// credentials), else `nil`.
    public init?(_ string: String) {
        let trimmed = string.hasSuffix("/") ? String(string.dropLast()) : string
        let lowered = trimmed.lowercased()
        let scheme: String
        if lowered.hasPrefix("https://") { scheme = "https" } else if lowered.hasPrefix("http://") { scheme = "http" } else { return nil }
        let authority = String(trimmed.dropFirst(scheme.count + 3))
        guard Self.isAuthority(authority) else { return nil }
        self.scheme = scheme
        self.authority = authority.lowercased()
    }

    /// The site of `request`, from its scheme and `Host` (a malformed `Host` reads as `localhost`).
    init(of request: Request) {
        scheme = request.isSecure ? "https" : "http"
        let host = request.headers[HTTPField.Name("Host")!] ?? ""
        authority = Self.isAuthority(host) ? host.lowercased() : "localhost"
    }

    /// `path` (starting with `/`) on this site.
    public func absolute(_ path: String) -> String {
        "\(scheme)://\(authority)\(path)"
    }

    public var description: String { "\(scheme)://\(authority)" }

    /// A host name, an IPv4 address or a bracketed IPv6 address, then perhaps `:port`.
    static func isAuthority(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 255 else { return false }
        var host = Substring(text)
        if let colon = text.lastIndex(of: ":"), !text.hasSuffix("]"), text.first != "[" || text[..<colon].hasSuffix("]") {
            let port = text[text.index(after: colon)...]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCIIDigit), Int(port)! <= 65535 else { return false }
            host = text[..<colon]
        }
        if host.first == "[" {
            guard host.last == "]", host.count > 2 else { return false }
            return host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        return !host.isEmpty && !host.hasPrefix("-") && !host.hasPrefix(".")
            && host.allSatisfy { $0.isASCIILetterOrDigit || $0 == "-" || $0 == "." }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
    var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}

extension RequestContext {
    /// `path` as a full URL on the site: the configured ``SiteURL`` (`PUBLIC_URL`), or else the
    /// request's own scheme and `Host`.
    public func absoluteURL(for path: String) -> String {
        (application.siteURL ?? SiteURL(of: request)).absolute(path)
    }
}
