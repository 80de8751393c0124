import CTesseraTLS

#if canImport(Glibc)
import Glibc
#endif

/// One SMTP connection, in blocking calls that each wait at most until the conversation's
/// deadline: a command written whole, a reply read line by line; in clear, or through TLS once
/// ``startTLS(host:caFile:)`` has verified the server.
final class SMTPConnection {
    private let socket: Int32
    private let deadline: ContinuousClock.Instant
    /// What the server sent past the last line read.
    private var unread: [UInt8] = []
    /// The TLS session, once started: every byte then goes through it.
    private var tls: OpaquePointer?

    /// Whether the connection is encrypted, with a verified server.
    var isEncrypted: Bool { tls != nil }

    /// Whether the server's address is a loopback one (`127.0.0.0/8`, `::1`): bytes sent in clear
    /// then never cross a network. Asked of the connected socket, not of the URL's host name.
    var reachesLoopback: Bool {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let known = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(socket, $0, &length) == 0 }
        }
        guard known else { return false }
        switch Int32(address.ss_family) {
        case AF_INET:
            return withUnsafeBytes(of: &address) { $0.load(as: sockaddr_in.self).sin_addr.s_addr.bigEndian >> 24 == 127 }
        case AF_INET6:
            let bytes = withUnsafeBytes(of: &address) { Array(withUnsafeBytes(of: $0.load(as: sockaddr_in6.self).sin6_addr) { $0 }) }
            let mappedLoopback = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
            return bytes == [UInt8](repeating: 0, count: 15) + [1] || mappedLoopback
        default:
            return false
        }
    }

    /// The longest reply line taken; RFC 5321 allows 512 bytes.
    static let maximumLineLength = 4096

    init(host: String, port: Int, deadline: ContinuousClock.Instant) throws {
        self.deadline = deadline
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var addresses: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &addresses)
        guard status == 0, let addresses else {
            throw SMTPError.unreachable(reason: "\(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(addresses) }
        var reason = "\(host) has no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = addresses
        while let address = candidate?.pointee {
            candidate = address.ai_next
            let descriptor = Glibc.socket(
                address.ai_family, address.ai_socktype | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), address.ai_protocol)
            guard descriptor >= 0 else { continue }
            if connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 || errno == EINPROGRESS {
                do {
                    try Self.wait(descriptor, for: Int16(POLLOUT), until: deadline)
                    var failure: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
                    if failure == 0 {
                        socket = descriptor
                        return
                    }
                    reason = "\(host):\(port): \(String(cString: strerror(failure)))"
                } catch {
                    Glibc.close(descriptor)
                    throw error
                }
            } else {
                reason = "\(host):\(port): \(String(cString: strerror(errno)))"
            }
            Glibc.close(descriptor)
        }
        throw SMTPError.unreachable(reason: reason)
    }

    func close() {
        if let tls { tessera_tls_free(tls) }
        Glibc.close(socket)
    }

    /// Starts TLS on the connection: the server's certificate must chain to the CA certificates
    /// in `caFile` (the system's when `nil`) and name `host`. Anything the server sent before the
    /// handshake and not yet read is refused: it would be a command slipped in before encryption.
    func startTLS(host: String, caFile: String?) throws {
        guard unread.isEmpty else { throw SMTPError.tls(reason: "the server sent more than its reply to STARTTLS, in clear") }
        var error = [CChar](repeating: 0, count: 512)
        guard let session = tessera_tls_client(socket, host, caFile, &error, error.count) else {
            throw SMTPError.tls(reason: Self.text(error))
        }
        while true {
            let status = tessera_tls_handshake(session, &error, error.count)
            switch status {
            case Int32(TESSERA_TLS_DONE):
                tls = session
                return
            case Int32(TESSERA_TLS_WANT_READ), Int32(TESSERA_TLS_WANT_WRITE):
                do {
                    try Self.wait(socket, for: Int16(status == Int32(TESSERA_TLS_WANT_READ) ? POLLIN : POLLOUT), until: deadline)
                } catch {
                    tessera_tls_free(session)
                    throw error
                }
            default:
                tessera_tls_free(session)
                throw SMTPError.tls(reason: Self.text(error))
            }
        }
    }

    private static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sends `line` and checks the reply's code; `shown` names the command in errors (never
    /// `AUTH`'s secret). Returns the reply's lines, without their codes.
    @discardableResult
    func command(_ line: String, expect codes: Int..., shown: String? = nil) throws -> [String] {
        try send(line + "\r\n", expectAny: codes, shown: shown ?? String(line.prefix { $0 != ":" && $0 != " " }))
    }

    @discardableResult
    func send(_ text: String, expectAny codes: [Int], shown: String) throws -> [String] {
        try write(Array(text.utf8), during: shown)
        return try expectAny(codes, after: shown)
    }

    func expect(_ code: Int, after what: String) throws {
        try expectAny([code], after: what)
    }

    /// Reads one reply, all its lines (`250-…` continues, `250 …` ends), and checks its code.
    @discardableResult
    private func expectAny(_ codes: [Int], after what: String) throws -> [String] {
        var text: [String] = []
        while true {
            let line = try readLine(during: what)
            text.append(String(line.dropFirst(4)))
            let isLast = line.count < 4 || line[line.index(line.startIndex, offsetBy: 3)] != "-"
            guard isLast else { continue }
            guard let code = Int(line.prefix(3)) else { throw SMTPError.refused(command: what, code: 0, reply: line) }
            guard codes.contains(code) else { throw SMTPError.refused(command: what, code: code, reply: text.joined(separator: " ")) }
            return text
        }
    }

    private func readLine(during what: String) throws -> String {
        var chunk = [UInt8](repeating: 0, count: 1024)
        while true {
            if let newline = unread.firstIndex(of: UInt8(ascii: "\n")) {
                let line = unread[..<newline]
                unread.removeSubrange(...newline)
                return String(decoding: line, as: UTF8.self).trimmingSuffix(while: { $0 == "\r" })
            }
            guard unread.count <= Self.maximumLineLength else { throw SMTPError.replyTooLong }
            if let tls {
                // OpenSSL may hold decrypted bytes already: read first, wait only when told to.
                let count = chunk.withUnsafeMutableBytes { tessera_tls_read(tls, $0.baseAddress, $0.count) }
                switch count {
                case 1...: unread.append(contentsOf: chunk[..<count])
                case Int(TESSERA_TLS_WANT_READ): try Self.wait(socket, for: Int16(POLLIN), until: deadline)
                case Int(TESSERA_TLS_WANT_WRITE): try Self.wait(socket, for: Int16(POLLOUT), until: deadline)
                default: throw SMTPError.closed(during: what)
                }
                continue
            }
            try Self.wait(socket, for: Int16(POLLIN), until: deadline)
            let count = recv(socket, &chunk, chunk.count, 0)
            if count > 0 {
                unread.append(contentsOf: chunk[..<count])
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                throw SMTPError.closed(during: what)
            }
        }
    }

    private func write(_ bytes: [UInt8], during what: String) throws {
        var sent = 0
        while sent < bytes.count {
            if let tls {
                let count = bytes[sent...].withUnsafeBytes { tessera_tls_write(tls, $0.baseAddress, $0.count) }
                switch count {
                case 1...: sent += count
                case Int(TESSERA_TLS_WANT_READ): try Self.wait(socket, for: Int16(POLLIN), until: deadline)
                case Int(TESSERA_TLS_WANT_WRITE): try Self.wait(socket, for: Int16(POLLOUT), until: deadline)
                default: throw SMTPError.closed(during: what)
                }
                continue
            }
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                sent += count
            } else if errno == EAGAIN || errno == EINTR {
                try Self.wait(socket, for: Int16(POLLOUT), until: deadline)
            } else {
                throw SMTPError.closed(during: what)
            }
        }
    }

    /// Waits until `descriptor` is ready for `events`, or throws ``SMTPError/timedOut`` at the deadline.
    private static func wait(_ descriptor: Int32, for events: Int16, until deadline: ContinuousClock.Instant) throws {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw SMTPError.timedOut }
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
            var poller = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&poller, 1, Int32(clamping: milliseconds))
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw SMTPError.unreachable(reason: String(cString: strerror(errno))) }
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var text = self
        while let last = text.last, predicate(last) { text.removeLast() }
        return text
    }
}
