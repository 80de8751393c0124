import Foundation
import Synchronization

/// A TCP relay on loopback, in front of a server on another loopback port, that can go silent
/// without closing anything: what a client sees of a network partition or a frozen peer. Once
/// silent, it still reads what either side sends (so neither side's writes fail) and forwards
/// nothing, and it answers new connections the same way.
public final class SilentRelay: Sendable {
    /// Where clients connect.
    public let port: Int
    private let listening: Int32
    private let silent = Atomic<Bool>(false)
    private let sockets = Mutex<[Int32]>([])

    /// Relays each connection made to ``port`` to `upstreamPort` on 127.0.0.1, on threads of its
    /// own.
    public init(upstreamPort: Int) throws {
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) }
        }
        guard bound == 0, listen(listening, 64) == 0, named == 0 else {
            Glibc.close(listening)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.listening = listening
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listening, nil, nil)
                guard client >= 0 else { return }
                let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                var upstream = Self.loopback(port: upstreamPort)
                let connected = withUnsafePointer(to: &upstream) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                guard connected == 0 else {
                    Glibc.close(client)
                    Glibc.close(server)
                    continue
                }
                sockets.withLock { $0 += [client, server] }
                Thread.detachNewThread { self.pump(from: client, to: server) }
                Thread.detachNewThread { self.pump(from: server, to: client) }
            }
        }
    }

    /// From now on, nothing gets through, either way, and nothing is closed.
    public func goSilent() {
        silent.store(true, ordering: .releasing)
    }

    /// Closes every connection and stops accepting.
    public func close() {
        shutdown(listening, Int32(SHUT_RDWR))
        for socket in sockets.withLock({ $0 }) { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    private func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else {
                shutdown(destination, Int32(SHUT_WR))
                return
            }
            if silent.load(ordering: .acquiring) { continue }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes { write(destination, $0.baseAddress! + sent, count - sent) }
                guard written > 0 else { return }
                sent += written
            }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
