import Foundation
import TesseraHTTP
import TesseraTesting
import Testing

/// Every limit answers with a clear 4xx, and the server keeps serving afterwards.
@Suite struct LimitsTests {
    static let okHandler: @Sendable (Request) async throws -> Response = { request in
        .text("ok \(request.body.count)")
    }

    @Test func oversizedHeadersGet431() async throws {
        let server = try await TestServer.start(limits: HTTPServerLimits(maxHeaderBytes: 8 * 1024), Self.okHandler)
        let reply = try await onThread { [port = server.port] in
            try RawHTTPClient.request(port: port, "/ok", headers: ["X-Big": String(repeating: "a", count: 20 * 1024)])
        }
        #expect(reply.status == 431)
        #expect(try await server.assertServing().status == 200)
        try await server.stop()
    }

    /// The limit is exact: a head just over it is refused, though libmicrohttpd's memory pool
    /// (the limit plus room for the answer) would still hold it.
    @Test func theHeaderLimitIsExact() async throws {
        let limit = 8 * 1024
        let server = try await TestServer.start(limits: HTTPServerLimits(maxHeaderBytes: limit), Self.okHandler)
        let port = server.port
        let head = "GET /ok HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nX-Pad: \r\n\r\n"
        for (padding, status) in [(limit - head.utf8.count, 200), (limit - head.utf8.count + 1, 431)] {
            let reply = try await onThread {
                try RawHTTPClient.request(port: port, "/ok", headers: ["X-Pad": String(repeating: "a", count: padding)])
            }
            #expect(reply.status == status, "a head of \(head.utf8.count + padding) bytes")
        }
        let longURL = try await onThread { try RawHTTPClient.request(port: port, "/ok?" + String(repeating: "a", count: limit)) }
        #expect(longURL.status == 414)
        try await server.stop()
    }

    /// A head that fills libmicrohttpd's per-connection memory leaves no room for the answer's
    /// own head; 0.9.75 then closed the connection without a word. Every size around that edge
    /// gets one answer, 431 or 414, and the connection closes.
    @Test func aHeadThatFillsTheConnectionsMemoryIsAnswered() async throws {
        let limit = 8 * 1024
        let server = try await TestServer.start(limits: HTTPServerLimits(maxHeaderBytes: limit), Self.okHandler)
        let port = server.port
        let pool = limit + 4096
        for size in stride(from: pool - 1024, through: pool + 256, by: 16) {
            let (reply, trailing) = try await onThread {
                let client = try RawHTTPClient(port: port, timeout: 5)
                try client.send("GET /ok HTTP/1.1\r\nHost: x\r\nX-Pad: \(String(repeating: "a", count: size))\r\n\r\n")
                let reply = try client.readReply()
                return (reply, try client.readToEnd())
            }
            #expect(reply.status == 431, "a header of \(size) bytes")
            #expect(reply.header("connection") == "close")
            #expect(trailing.isEmpty)
        }
        #expect(try await server.assertServing().status == 200)
        try await server.stop()
    }

    @Test func oversizedURLGets414() async throws {
        let server = try await TestServer.start(limits: HTTPServerLimits(maxHeaderBytes: 8 * 1024), Self.okHandler)
        let reply = try await onThread { [port = server.port] in
            try RawHTTPClient.request(port: port, "/ok?" + String(repeating: "a", count: 20 * 1024))
        }
        #expect(reply.status == 414)
        #expect(try await server.assertServing().status == 200)
        try await server.stop()
    }

    @Test func declaredOversizedBodyGets413BeforeItIsSentOrOnceItIsRead() async throws {
        let server = try await TestServer.start(limits: HTTPServerLimits(maxBodyBytes: 1000), Self.okHandler)
        let port = server.port
        let (reply, trailing) = try await onThread {
            let client = try RawHTTPClient(port: port)
            // Only the head is sent, waiting for 100 Continue: the answer must not wait for a body it will refuse.
            try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n")
            return (try client.readReply(), try client.readToEnd())
        }
        #expect(reply.status == 413)
        #expect(reply.header("connection")?.lowercased() == "close")
        #expect(trailing.isEmpty, "no 100 Continue, and nothing after the answer")
        // Without Expect the client is sending its body: the server reads it, drops it, then answers.
        let (afterBody, sentWhole) = try await onThread {
            let client = try RawHTTPClient(port: port)
            try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
            let whole = client.sendUnlessRefused([UInt8](repeating: 66, count: 5000))
            return (try client.readReply(), whole)
        }
        #expect(sentWhole)
        #expect(afterBody.status == 413)
        let fits = try await onThread { try RawHTTPClient.request(port: port, "/upload", method: "POST", body: Array(repeating: 65, count: 1000)) }
        #expect(fits.status == 200 && fits.text == "ok 1000")
        try await server.stop()
    }

    @Test func chunkedOversizedBodyGets413() async throws {
        let server = try await TestServer.start(limits: HTTPServerLimits(maxBodyBytes: 1000), Self.okHandler)
        let port = server.port
        let reply = try await onThread {
            let client = try RawHTTPClient(port: port)
            var request = "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            for _ in 0..<3 { request += "258\r\n" + String(repeating: "b", count: 600) + "\r\n" }
            request += "0\r\n\r\n"
            try client.send(request)
            return try client.readReply()
        }
        #expect(reply.status == 413)
        let small = try await onThread {
            let client = try RawHTTPClient(port: port)
            try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
            return try client.readReply()
        }
        #expect(small.status == 200 && small.text == "ok 5")
        try await server.stop()
    }

    @Test func conflictingContentLengthsGet400() async throws {
        let server = try await TestServer.start(Self.okHandler)
        let port = server.port
        let heads = [
            "Content-Length: 5\r\nContent-Length: 6\r\n",
            "Content-Length: 5, 6\r\n",
            "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
            "Content-Length: five\r\n",
        ]
        for head in heads {
            let reply = try await onThread {
                let client = try RawHTTPClient(port: port)
                try client.send("POST /ok HTTP/1.1\r\nHost: x\r\n\(head)\r\nhello!")
                return try client.readReply()
            }
            #expect(reply.status == 400, "\(head)")
        }
        let sameTwice = try await onThread {
            let client = try RawHTTPClient(port: port)
            try client.send("POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello")
            return try client.readReply()
        }
        #expect(sameTwice.status == 200)
        try await server.stop()
    }

    @Test func malformedTargetsGet400() async throws {
        let server = try await TestServer.start(Self.okHandler)
        let port = server.port
        for target in ["/a%2Fb", "/a%00b", "/a/../b", "/%2e%2e/x", "/a/./b", "/bad%zz", "/%C3%28", "*", "relative"] {
            let reply = try await onThread { try RawHTTPClient.request(port: port, target) }
            #expect(reply.status == 400, "\(target)")
            #expect(try await server.assertServing().status == 200)
        }
        try await server.stop()
    }

    @Test func slowClientIsCutOff() async throws {
        let server = try await TestServer.start(limits: HTTPServerLimits(idleTimeout: .seconds(1)), Self.okHandler)
        let port = server.port
        let (closed, elapsed) = try await onThread {
            let client = try RawHTTPClient(port: port, timeout: 8)
            let start = Date()
            try client.send("GET /ok HTTP/1.1\r\nHost: x\r\nX-Slow: ")  // and then nothing more
            let closed = client.isClosedByServer()
            return (closed, Date().timeIntervalSince(start))
        }
        #expect(closed)
        #expect(elapsed < 6, "cut off after \(elapsed)s")
        #expect(try await server.assertServing().status == 200)
        try await server.stop()
    }

    @Test func connectionsOverTheCapPerClientAddressGetA503() async throws {
        let server = try await TestServer.start(limits: HTTPServerLimits(maxConnectionsPerIP: 2), Self.okHandler)
        let port = server.port
        let (refusal, trailing, bodyRefusal, photoRefusal) = try await onThread {
            let first = try RawHTTPClient(port: port)
            let second = try RawHTTPClient(port: port)
            for client in [first, second] {
                try client.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try client.readReply()
            }
            // Not an empty reply, which clients and balancers take for a network failure.
            let third = try RawHTTPClient(port: port)
            try third.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            let refusal = try third.readReply()
            let trailing = try third.readToEnd()
            // Over the cap with a body on its way: the body is read and dropped, so the client
            // gets the 503 rather than a reset.
            let uploader = try RawHTTPClient(port: port)
            try uploader.send("POST /ok HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 900000\r\n\r\n")
            let whole = uploader.sendUnlessRefused([UInt8](repeating: 1, count: 900_000))
            let bodyRefusal = (whole, try uploader.readReply().status)
            // So is a browser's photo, within the upload limit: the 503 page, not a reset.
            let photo = try RawHTTPClient(port: port, timeout: 30)
            try photo.send(
                "POST /ok HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: \(20 * 1024 * 1024)\r\n\r\n")
            let photoSent = photo.sendUnlessRefused(repeating: 0x2D, count: 20 * 1024 * 1024)
            let photoRefusal = (photoSent, try photo.readReply().status)
            // The two kept-alive connections still work, and so does a new one once one closes.
            try first.send("GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            _ = try first.readReply()
            return (refusal, trailing, bodyRefusal, photoRefusal)
        }
        // Once the server has let the closed one go (it counts its connections), a new one is served.
        let givingUp = ContinuousClock.now + .seconds(60)
        while server.state.openConnections > 1 {
            try #require(ContinuousClock.now < givingUp, "the server never let the closed connections go")
            try await Task.sleep(for: .milliseconds(5))
        }
        let afterwards = try await onThread { try RawHTTPClient.request(port: port, "/ok").status }
        #expect(refusal.status == 503)
        #expect(refusal.header("retry-after") == "5")
        #expect(refusal.header("connection") == "close")
        #expect(trailing.isEmpty, "one answer, then the connection closes")
        #expect(bodyRefusal.0 && bodyRefusal.1 == 503)
        #expect(photoRefusal.0 && photoRefusal.1 == 503, "a 20 MB upload over the cap is read and answered")
        #expect(afterwards == 200)
        try await server.stop()
    }

    @Test func handlerPastItsDeadlineGets503() async throws {
        let server = try await TestServer.start(limits: HTTPServerLimits(responseTimeout: .milliseconds(300))) { request in
            if request.path == "/stuck" { try await Task.sleep(for: .seconds(30)) }
            return .text("ok")
        }
        let reply = try await onThread { [port = server.port] in try RawHTTPClient.request(port: port, "/stuck") }
        #expect(reply.status == 503)
        #expect(try await server.assertServing().status == 200)
        try await server.stop()
    }

    /// Each waiting request has its own deadline, counted from when it began to wait, whoever
    /// waits beside it: one that answers in time leaves the loop's list from its middle, and a
    /// later one is not cut at the first one's deadline.
    @Test func eachWaitingRequestIsCutAtItsOwnDeadline() async throws {
        let patience = Duration.milliseconds(400)
        let server = try await TestServer.start(limits: HTTPServerLimits(responseTimeout: patience)) { request in
            switch request.path {
            case "/stuck": try await Task.sleep(for: .seconds(30))
            case "/quick": try await Task.sleep(for: .milliseconds(50))
            default: break
            }
            return .text("ok")
        }
        let port = server.port
        func timed(_ path: String) async throws -> (status: Int, waited: Duration) {
            try await onThread {
                let clock = ContinuousClock()
                let start = clock.now
                let status = try RawHTTPClient.request(port: port, path).status
                return (status, clock.now - start)
            }
        }
        async let first = timed("/stuck")
        try await Task.sleep(for: .milliseconds(20))
        async let quick = timed("/quick")
        try await Task.sleep(for: .milliseconds(200))
        async let later = timed("/stuck")
        let (firstReply, quickReply, laterReply) = try await (first, quick, later)
        #expect(firstReply.status == 503 && firstReply.waited >= patience)
        #expect(quickReply.status == 200)
        #expect(laterReply.status == 503)
        #expect(laterReply.waited >= patience, "cut at its own deadline, not at the first request's")
        #expect(try await server.assertServing().status == 200)
        try await server.stop()
    }
}
