import Foundation
import TesseraHTTP
import TesseraTesting
import Testing

/// The strict request gate (RFC 9112): heads that two parties could read differently are refused
/// with one answer, and the connection is closed, so nothing hidden after them is ever answered.
/// After each vector, a normal request on a new connection still works.
@Suite struct RequestGateTests {
    static let echoPath: @Sendable (Request) async throws -> Response = { request in .text("path \(request.path)") }

    /// Sends `raw` on a new connection; returns the one reply, and whether anything followed it
    /// before the server closed the connection.
    static func exchange(_ raw: String, port: Int) async throws -> (reply: TestResponse, trailing: [UInt8]) {
        try await onThread {
            let client = try RawHTTPClient(port: port, timeout: 5)
            try client.send(raw)
            let reply = try client.readReply()
            return (reply, try client.readToEnd())
        }
    }

    @Test(arguments: [
        // Two Transfer-Encoding lines, with a second request hidden in the body (a desync).
        (
            "POST /ok HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\nGET /ok HTTP/1.1\r\nHost: x\r\n\r\n",
            400
        ),
        // A coding other than exactly `chunked`.
        ("POST /ok HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n", 501),
        ("POST /ok HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501),
        // Host missing from an HTTP/1.1 request, or given twice.
        ("GET /ok HTTP/1.1\r\n\r\n", 400),
        ("GET /ok HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        // Control characters inside a value: a bare CR, DEL, and NUL (which libmicrohttpd's C
        // strings would silently end the value at) in the middle, at the end, in the last line.
        ("GET /ok HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n", 400),
        ("GET /ok HTTP/1.1\r\nHost: x\r\nX-A: a\u{7F}b\r\n\r\n", 400),
        ("GET /ok HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\nX-B: c\r\n\r\n", 400),
        ("GET /ok HTTP/1.1\r\nHost: x\r\nX-A: a\0\r\nX-B: c\r\n\r\n", 400),
        ("GET /ok HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\n\r\n", 400),
        // A malformed request line: two spaces after the method, or before the version.
        ("GET  /ok HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET /ok  HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        // No method, or nothing but a method: libmicrohttpd 0.9.75 closed these without a word.
        ("GARBAGE\r\n\r\n", 400),
        ("GET\r\nHost: x\r\n\r\n", 400),
        (" GET /ok HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        // A header folded over two lines (obs-fold), which RFC 9112 says to refuse.
        ("GET /ok HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n", 400),
    ])
    func refusedOnceAndClosed(raw: String, status: Int) async throws {
        let server = try await TestServer.start(Self.echoPath)
        let (reply, trailing) = try await Self.exchange(raw, port: server.port)
        #expect(reply.status == status, "\(raw.debugDescription)")
        #expect(trailing.isEmpty, "exactly one response, then the connection closes: \(String(decoding: trailing, as: UTF8.self))")
        #expect(try await server.assertServing().status == 200)
        try await server.stop()
    }

    /// The strictness must not refuse what RFC 9112 allows.
    @Test(arguments: [
        "GET /ok?a=1&b=%20x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /ok HTTP/1.1\r\nHost:x\r\nX-A:\tb \t\r\nX-Empty:\r\nConnection: close\r\n\r\n",
        "GET /ok HTTP/1.1\nHost: x\nConnection: close\n\n",
        "GET /ok HTTP/1.1\r\nHost: x\r\nCookie: a=b; c=d\r\nConnection: close\r\n\r\n",
    ])
    func lenientWhereTheRFCAllows(raw: String) async throws {
        let server = try await TestServer.start(Self.echoPath)
        let (reply, _) = try await Self.exchange(raw, port: server.port)
        #expect(reply.status == 200, "\(raw.debugDescription)")
        #expect(reply.text == "path /ok")
        try await server.stop()
    }

    /// libmicrohttpd answers an invalid `Content-Length` itself, before the app sees the request.
    /// Debian's 0.9.75 then wrote its status line and headers a second time; the build from
    /// `scripts/build-libmicrohttpd.sh` carries the fix, so exactly one response goes out.
    @Test(arguments: [
        ("POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400),
        ("POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
    ])
    func aContentLengthLibmicrohttpdRefusesItself(raw: String, status: Int) async throws {
        let server = try await TestServer.start(Self.echoPath)
        let (reply, trailing) = try await Self.exchange(raw, port: server.port)
        #expect(reply.status == status)
        #expect(reply.header("connection") == "close")
        let rest = String(decoding: Array(reply.body) + trailing, as: UTF8.self)
        #expect(!rest.contains("HTTP/1.1"), "one status line and one head, then the body: \(rest.debugDescription)")
        #expect(try await server.assertServing().status == 200)
        try await server.stop()
    }

    @Test func theAbsoluteFormIsAccepted() async throws {
        let server = try await TestServer.start(Self.echoPath)
        let port = server.port
        for (target, path) in [("http://localhost/ok", "/ok"), ("HTTP://localhost:8080/a/b?x=1", "/a/b"), ("https://example.com", "/")] {
            let reply = try await onThread { try RawHTTPClient.request(port: port, target) }
            #expect(reply.status == 200, "\(target)")
            #expect(reply.text == "path \(path)", "\(target)")
        }
        try await server.stop()
    }

    @Test func anHTTP10RequestMayOmitHost() async throws {
        let server = try await TestServer.start(Self.echoPath)
        let (reply, _) = try await Self.exchange("GET /ok HTTP/1.0\r\n\r\n", port: server.port)
        #expect(reply.status == 200)
        #expect(reply.text == "path /ok")
        try await server.stop()
    }
}
