import Foundation
import Synchronization
package import TesseraLoop

/// Resolves the database's host name on a thread of its own, so that a slow or silent DNS server
/// never holds an event loop: libpq resolves `host=` on the thread that calls `PQconnectStart`,
/// and a loop blocked there holds every HTTP connection on it (a resolver that takes 3 s held
/// one for 3 s).
///
/// Lookups of the same name at once share one thread and one answer, so a DNS outage under load
/// costs one blocked thread, not one per connection attempt. Nothing is cached: each new
/// connection asks again, so a database that moves (a failover that changes the record) is
/// found at the next connection.
package final class HostResolver: Sendable {
    package typealias Answer = Result<String, DatabaseUnavailable>

    private let waiting = Mutex<[String: [@Sendable (Answer) -> Void]]>([:])

    package init() {}

    /// Looks `host` up and calls `then` with its first address, as text for libpq's `hostaddr`,
    /// on the resolver's thread.
    package func resolve(_ host: String, then: @escaping @Sendable (Answer) -> Void) {
        let first = waiting.withLock { waiting in
            defer { waiting[host, default: []].append(then) }
            return waiting[host] == nil
        }
        guard first else { return }
        Thread.detachNewThread { [self] in
            let answer = Self.lookUp(host)
            for then in waiting.withLock({ $0.removeValue(forKey: host) ?? [] }) { then(answer) }
        }
    }

    /// Whether libpq would resolve `host` at all: not for an IP address (IPv6 ones hold a colon,
    /// which no name does) nor for a Unix socket's folder.
    package static func needsLookUp(_ host: String) -> Bool {
        guard !host.hasPrefix("/"), !host.contains(":") else { return false }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) != 1
    }

    private static func lookUp(_ host: String) -> Answer {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            return .failure(DatabaseUnavailable(reason: "could not resolve the database's host \(host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(first.pointee.ai_addr, first.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else {
            return .failure(DatabaseUnavailable(reason: "could not read the address of the database's host \(host)"))
        }
        return .success(String(cString: text))
    }
}

/// Where a loop's connections connect: libpq's connection string, and the host name to resolve
/// off the loop first when the URL names one.
package struct PostgresAddress: Sendable {
    private(set) var conninfo: String
    /// `nil` when the URL names an IP address or a socket folder.
    package let hostName: String?
    package let resolver: HostResolver

    package init(url: PostgresURL, resolver: HostResolver) {
        conninfo = url.conninfo
        hostName = HostResolver.needsLookUp(url.host) ? url.host : nil
        self.resolver = resolver
    }

    /// The same address, for connections that show `name` in `pg_stat_activity`'s
    /// `application_name` (libpq takes the last of a repeated keyword).
    package func named(_ name: String) -> PostgresAddress {
        var named = self
        named.conninfo += " application_name='\(name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'"))'"
        return named
    }

    /// The connection string with the resolved address beside the name: libpq connects to
    /// `hostaddr` and still checks the certificate and reads the password file for `host`.
    package func conninfo(at address: String) -> String {
        conninfo + " hostaddr='\(address)'"
    }
}
