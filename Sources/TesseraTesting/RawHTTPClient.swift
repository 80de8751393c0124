public import Foundation

#if canImport(Glibc)
import Glibc
#endif

// @unchecked: a client is used by one test at a time, handed from the test to a thread and back.
/// A deliberately dumb HTTP/1.1 client over a blocking socket. Tests need to send what real
/// clients would never send (conflicting headers, half a request, a body too large), and to
/// see exactly what comes back, so no library sits in between.
public final class RawHTTPClient: @unchecked Sendable {
    /// Why a raw exchange failed.
    public enum Failure: Error {
        /// `connect` failed with this `errno`.
        case connect(Int32)
        /// The server closed the connection (in order) before a whole reply arrived.
        case closed
        /// The connection was reset (`ECONNRESET`, `EPIPE`), or failed with another `errno`,
        /// before a whole reply arrived; `received` bytes of a reply had come.
        case reset(errno: Int32, received: Int)
        /// Nothing arrived within the client's timeout.
        case timeout
        /// The reply is not HTTP/1.1 as the client reads it; the text says what was wrong.
        case malformed(String)
    }

    /// The socket, for tests that need to do something unusual with it (half-close, say).
    public let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to `127.0.0.1:port`, from `source` when given (any `127.x.y.z` is this machine,
    /// so one test can be several clients); reads wait at most `timeout` seconds.
    public init(port: Int, from source: String? = nil, timeout: TimeInterval = 10) throws {
        // The socket is this object's only once connected: a throw after `self` is whole runs
        // `deinit`, whose second `close` would shut whatever a parallel test opened meanwhile
        // under the same number. Close-on-exec keeps it out of programs other tests start.
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw Failure.connect(errno) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let code = errno
                close(socket)
                throw Failure.connect(code)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(socket)
            throw Failure.connect(code)
        }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        descriptor = socket
    }

    deinit {
        close(descriptor)
    }

    /// Waits until the server's end of this connection has taken in everything sent so far, as
    /// the kernel counts it in `/proc/net/tcp` (IPv4): nothing left unacknowledged on this side,
    /// nothing unread on the server's. Half a request is then in the server's hands, not still in
    /// a buffer on its way. Throws ``Failure/timeout`` after `limit`.
    public func waitUntilServerHasRead(within limit: Duration = .seconds(60)) throws {
        func address(_ get: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) -> String {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { get(descriptor, $0, &length) } }
            // As /proc/net/tcp writes it: the address in the host's byte order, the port in hex.
            return String(format: "%08X:%04X", address.sin_addr.s_addr, UInt16(bigEndian: address.sin_port))
        }
        let (client, server) = (address(getsockname), address(getpeername))
        let givingUp = ContinuousClock.now + limit
        while ContinuousClock.now < givingUp {
            // Read to its end: a /proc file says its size is 0.
            let table = String(
                decoding: (try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/net/tcp")).readToEnd()) ?? Data(), as: UTF8.self)
            // Each socket's queues, "transmit:receive" in hex: ours by our address first, the server's by its.
            var sent: Int?, unread: Int?
            for line in table.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 4 else { continue }
                let queues = fields[4].split(separator: ":").map { Int($0, radix: 16) }
                guard queues.count == 2 else { continue }
                if fields[1] == client, fields[2] == server { sent = queues[0] }
                if fields[1] == server, fields[2] == client { unread = queues[1] }
            }
            if sent == 0, unread == 0 { return }
            usleep(2_000)
        }
        throw Failure.timeout
    }

    /// Sends `text` as UTF-8, exactly as written: nothing is added or fixed.
    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Sends `bytes` as they are.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw Failure.reset(errno: errno, received: buffer.count) }
            offset += sent
        }
    }

    /// Sends `bytes` as a browser sends a body: until they are all sent or the server stops
    /// taking them (it answered early and closed). `false` in the second case; either way, read
    /// the reply next, as a browser does, since a server may answer before the body ends.
    public func sendUnlessRefused(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// ``sendUnlessRefused(_:)`` for `count` copies of `byte`, sent from one buffer of a
    /// megabyte: a test that sends 50 MB must not hold 50 MB, or a test that measures memory
    /// beside it in this process sees it.
    public func sendUnlessRefused(repeating byte: UInt8, count: Int) -> Bool {
        let piece = [UInt8](repeating: byte, count: min(count, 1 << 20))
        var left = count
        while left > 0 {
            let size = min(left, piece.count)
            guard sendUnlessRefused(size == piece.count ? piece : Array(piece[..<size])) else { return false }
            left -= size
        }
        return true
    }

    /// Reads one response. `head` is for answers to HEAD, which carry no body whatever they say.
    public func readReply(head: Bool = false) throws -> TestResponse {
        var reply = try readHead()
        if head || reply.status == 304 || reply.status == 204 || (100..<200).contains(reply.status) { return reply }
        reply.body = try readBody(after: reply)
        return reply
    }

    /// The body that follows `head` (read by ``readHead()``): chunked, by length, or to the end.
    public func readBody(after head: TestResponse) throws -> [UInt8] {
        if head.header("transfer-encoding")?.lowercased() == "chunked" { return try readChunked() }
        if let length = head.header("content-length").flatMap(Int.init) {
            try fill(atLeast: length)
            defer { buffer.removeFirst(length) }
            return Array(buffer[..<length])
        }
        while (try? fillMore()) == true {}
        defer { buffer = [] }
        return buffer
    }

    /// Reads a chunked body, calling `onChunk` as each chunk arrives (to observe streaming).
    public func readChunked(onChunk: ([UInt8]) -> Void = { _ in }) throws -> [UInt8] {
        var body: [UInt8] = []
        while let chunk = try readChunk() {
            onChunk(chunk)
            body += chunk
        }
        return body
    }

    /// The next chunk of a chunked body; `nil` after the last one.
    public func readChunk() throws -> [UInt8]? {
        let lineEnd = try readUntil([13, 10])
        let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
        buffer.removeFirst(lineEnd + 2)
        guard let size = Int(sizeText, radix: 16) else { throw Failure.malformed("chunk size \(sizeText)") }
        if size == 0 {
            _ = try readUntil([13, 10])
            buffer.removeFirst(2)
            return nil
        }
        try fill(atLeast: size + 2)
        let chunk = Array(buffer[..<size])
        buffer.removeFirst(size + 2)
        return chunk
    }

    /// Reads the status line and headers of a chunked answer, leaving the body to `readChunked`.
    public func readHead() throws -> TestResponse {
        let headEnd = try readUntil([13, 10, 13, 10])
        let headText = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure.malformed(headText) }
        return TestResponse(status: status, headers: headers, body: [])
    }

    /// Everything the server sends after what was read so far, until it closes the connection.
    /// Empty after a reply means exactly one response was sent, and then the connection closed;
    /// a server that keeps the connection open makes this throw ``Failure/timeout``.
    public func readToEnd() throws -> [UInt8] {
        do {
            while try fillMore() {}
        } catch Failure.reset {
            // A reset ends the stream as well as a close does.
        }
        defer { buffer = [] }
        return buffer
    }

    /// True when the server has already closed the connection; does not wait for it.
    public func isClosedByServerWithoutWaiting() -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// True when the server has closed the connection (a read returns end-of-file).
    public func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, 0)
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        while true {
            if let range = buffer.firstRange(of: marker) { return range.lowerBound }
            guard try fillMore() else { throw Failure.closed }
        }
    }

    private func fill(atLeast count: Int) throws {
        while buffer.count < count {
            guard try fillMore() else { throw Failure.closed }
        }
    }

    /// Reads what has come; `false` at the end of the stream (the server closed in order).
    private func fillMore() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var count = recv(descriptor, &chunk, chunk.count, 0)
        while count < 0 && errno == EINTR { count = recv(descriptor, &chunk, chunk.count, 0) }
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK { throw Failure.timeout }
            throw Failure.reset(errno: errno, received: buffer.count)
        }
        if count == 0 { return false }
        buffer += chunk[..<count]
        return true
    }
}

extension RawHTTPClient {
    /// One request on a new connection, with `Connection: close`; `Host: localhost` unless `headers` name another.
    public static func request(
        port: Int, _ target: String, method: String = "GET", headers: [String: String] = [:], body: [UInt8] = [],
        timeout: TimeInterval = 10
    ) throws -> TestResponse {
        let client = try RawHTTPClient(port: port, timeout: timeout)
        let host = headers.keys.contains { $0.lowercased() == "host" } ? "" : "Host: localhost\r\n"
        var head = "\(method) \(target) HTTP/1.1\r\n\(host)Connection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        try client.send(Array((head + "\r\n").utf8) + body)
        return try client.readReply(head: method == "HEAD")
    }
}

/// Runs blocking work on its own thread, so that socket waits never tie up the small
/// cooperative thread pool the server's handlers need.
public func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(with: Result { try work() })
        }.start()
    }
}
