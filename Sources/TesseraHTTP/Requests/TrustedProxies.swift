import HTTPTypes

/// The proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` the server believes.
///
/// Behind a load balancer or a TLS-terminating proxy, the connection comes from the proxy, over
/// plain HTTP. The proxy says who the client is and whether it used HTTPS in those two fields, but
/// any client can send them too. So they are read only when the connection comes from an address
/// listed here, and ignored otherwise: a client cannot pose as another address (and dodge a
/// sign-in throttle), nor as HTTPS.
public struct TrustedProxies: Sendable, Equatable {
    /// The proxies' addresses, exactly as they connect (`127.0.0.1`, `10.0.0.5`).
    public var addresses: Set<IPAddress>

    /// Trusts no one: the default, right for a server that faces clients directly.
    public init(_ addresses: Set<IPAddress> = []) {
        self.addresses = addresses
    }

    /// Parses a comma-separated list such as `127.0.0.1, ::1`; `nil` if an entry is not an address.
    public init?(list: String) {
        var addresses = Set<IPAddress>()
        for entry in list.split(separator: ",") {
            guard let address = IPAddress(String(entry.trimmingSpaces())) else { return nil }
            addresses.insert(address)
        }
        self.init(addresses)
    }

    /// The client's address and whether it used HTTPS, for a connection from `remote` carrying
    /// `headers`. The client is the right-most `X-Forwarded-For` entry that is not itself a
    /// trusted proxy: entries further left were written by the client and prove nothing.
    func resolve(remote: IPAddress?, headers: RequestHeaders) -> (client: IPAddress?, isSecure: Bool) {
        guard !addresses.isEmpty, let remote, addresses.contains(remote) else { return (remote, false) }
        var client = remote
        let hops = headers[values: .xForwardedFor].flatMap { $0.split(separator: ",") }
        for hop in hops.reversed() {
            guard let address = IPAddress(String(hop.trimmingSpaces())) else { break }
            client = address
            if !addresses.contains(address) { break }
        }
        let proto = headers[values: .xForwardedProto].last?.split(separator: ",").last?.trimmingSpaces()
        return (client, proto?.lowercased() == "https")
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`: the addresses a request came through, client first.
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    /// `X-Forwarded-Proto`: `https` when the client reached the proxy over TLS.
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
