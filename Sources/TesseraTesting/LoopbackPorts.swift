import Foundation

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
        (socket, port) = boundLoopbackSocket()
    }

    deinit {
        close(socket)
    }
}

/// A loopback port that listens for as long as this value lives and says nothing: the kernel
/// completes each connection, and only a connection the test takes with ``accept()`` is ever
/// answered. For tests of clients facing a server that stalls or misbehaves.
public final class ListeningLoopbackPort: Sendable {
    /// The port: held until this value goes.
    public let port: Int
    private let socket: Int32

    /// Binds a port the system picks on `address` (an IPv4 address of this machine; loopback
    /// unless a test needs a peer that is not), and listens on it.
    public init(address: String = "127.0.0.1") throws {
        (socket, port) = boundLoopbackSocket(address: address)
        guard port > 0, listen(socket, 16) == 0 else {
            close(socket)
            throw POSIXError(.EADDRNOTAVAIL)
        }
    }

    /// The next connection, once a client makes one; -1 once this value is gone.
    public func accept() -> Int32 {
        Foundation.accept(socket, nil, nil)
    }

    deinit {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }
}

/// A TCP socket bound to a port the system picks on `address`, and the port (0 if binding failed).
private func boundLoopbackSocket(address text: String = "127.0.0.1") -> (socket: Int32, port: Int) {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr(text)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
    }
    return (socket, bound ? Int(UInt16(bigEndian: address.sin_port)) : 0)
}

/// This machine's first IPv4 address other than loopback (an `eth0`'s), for a test that needs a
/// peer whose bytes would cross a network; `nil` on a machine with loopback alone.
public let nonLoopbackAddress: String? = {
    var interfaces: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&interfaces) == 0 else { return nil }
    defer { freeifaddrs(interfaces) }
    var next = interfaces
    while let interface = next?.pointee {
        next = interface.ifa_next
        guard let address = interface.ifa_addr, Int32(address.pointee.sa_family) == AF_INET else { continue }
        let ipv4 = UnsafeRawPointer(address).load(as: sockaddr_in.self).sin_addr
        guard UInt32(bigEndian: ipv4.s_addr) >> 24 != 127 else { continue }
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        var copy = ipv4
        guard inet_ntop(AF_INET, &copy, &text, socklen_t(text.count)) != nil else { continue }
        return String(cString: text)
    }
    return nil
}()
