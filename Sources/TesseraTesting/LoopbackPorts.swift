import Foundation

/// A loopback port that nothing listened on a moment ago: for a server a test starts on it.
public func unusedLoopbackPort() -> Int {
    RefusingLoopbackPort().port
}

/// A loopback port that refuses connections for as long as this value lives: bound, never
/// listening. For tests of what a client does when its server is not there (a refused
/// connection, not a timeout): a port merely free a moment ago can be taken meanwhile by another
/// test's server, running in parallel, which then answers.
public final class RefusingLoopbackPort: Sendable {
    /// The port: held until this value goes.
    public let port: Int
    private let socket: Int32

    /// Binds a port the system picks.
    public init() {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(socket)
    }
}
