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

    /// Whether `other` is the same origin: the same scheme, host and port, the scheme's default
    /// port written or not (`https://shop.example.com:443` is `https://shop.example.com`).
    public func isSameOrigin(as other: SiteURL) -> Bool {
        scheme == other.scheme && authorityWithoutDefaultPort == other.authorityWithoutDefaultPort
    }

    private var authorityWithoutDefaultPort: Substring {
        let defaultPort = scheme == "https" ? ":443" : ":80"
        return authority.hasSuffix(defaultPort) ? authority.dropLast(defaultPort.count) : authority[...]
    }

    /// Whether the host is this machine (`localhost`, `127.0.0.0/8`, `[::1]`): a developer's
    /// run, where only the developer can send requests.
    public var isLoopback: Bool {
        let host: Substring
        if authority.hasPrefix("[") {
            host = authority.prefix { $0 != "]" }.dropFirst()
        } else {
            host = authority.prefix { $0 != ":" }
        }
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        // 127.0.0.0/8 written as an address: four numbers, not a name that starts with 127.
        let numbers = host.split(separator: ".", omittingEmptySubsequences: false)
        return numbers.count == 4 && numbers[0] == "127"
            && numbers.allSatisfy { number in
                !number.isEmpty && number.count <= 3 && number.allSatisfy { ("0"..."9").contains($0) } && UInt8(number) != nil
            }
    }

    /// A host name, an IPv4 address or a bracketed IPv6 address, then perhaps `:port`. ASCII
    /// only, checked byte by byte: pages that link their canonical URL ask it several times.
    static func isAuthority(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
        func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66) }
        let colonByte = UInt8(ascii: ":"), open = UInt8(ascii: "["), close = UInt8(ascii: "]")
        var host = bytes[...]
        if let colon = bytes.lastIndex(of: colonByte), bytes.last != close, bytes.first != open || (colon > 0 && bytes[colon - 1] == close) {
            let port = bytes[(colon + 1)...]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(isDigit), port.reduce(0, { $0 * 10 + Int($1 - 0x30) }) <= 65535 else {
                return false
            }
            host = bytes[..<colon]
        }
        if host.first == open {
            guard host.last == close, host.count > 2 else { return false }
            return host.dropFirst().dropLast().allSatisfy { isHex($0) || $0 == colonByte || $0 == UInt8(ascii: ".") }
        }
        return !host.isEmpty && host.first != UInt8(ascii: "-") && host.first != UInt8(ascii: ".")
            && host.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }
}

extension RequestContext {
    /// `path` as a full URL on the site: the configured ``SiteURL`` (`PUBLIC_URL`), or else the
    /// request's own scheme and `Host`.
    public func absoluteURL(for path: String) -> String {
        site.absolute(path)
    }

    /// Where this request's site is: the configured ``SiteURL`` (`PUBLIC_URL`), or else the
    /// request's own scheme and `Host`. For a page that makes several absolute URLs.
    public var site: SiteURL {
        application.siteURL ?? SiteURL(of: request)
    }

    /// The site for a link that carries a secret (a password reset mailed to someone): the
    /// configured ``SiteURL``, or the request's own only on loopback. Elsewhere `nil`: the `Host`
    /// is the client's to choose, and a link to a host it chose would hand it the secret.
    public var trustedSite: SiteURL? {
        if let configured = application.siteURL { return configured }
        let own = SiteURL(of: request)
        return own.isLoopback ? own : nil
    }
}
