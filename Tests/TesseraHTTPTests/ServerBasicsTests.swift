import Foundation
import Logging
import ServiceLifecycle
import TesseraHTTP
import TesseraTesting
import Testing

/// The server's everyday behaviour, over real HTTP on loopback.
@Suite struct ServerBasicsTests {
    /// Echoes what the server parsed, so tests can check every part of `Request`.
    static let echo: @Sendable (Request) async throws -> Response = { request in
        switch request.path {
        case "/ok":
            return .text("ok")
        case "/form":
            let form = try request.form()
            let fields = form.fields.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            let files = form.files.map { "\($0.fieldName):\($0.safeFileName ?? "-"):\($0.size)" }.joined(separator: ",")
            return .text("fields[\(fields)] files[\(files)]")
        default:
            let tags = request.query.values(for: "tag").joined(separator: ",")
            let lines = [
                "method=\(request.method.rawValue)",
                "path=\(request.path)",
                "tags=\(tags)",
                "q=\(request.query["q"] ?? "-")",
                "x-custom=\(request.headers[.init("X-CUSTOM")!] ?? "-")",
                "session=\(request.cookies["session"] ?? "-")",
                "theme=\(request.cookies["theme"] ?? "-")",
                "remote=\(request.remoteAddress?.description ?? "-")",
                "client=\(request.clientAddress?.description ?? "-")",
                "secure=\(request.isSecure)",
                "body=\(String(decoding: (try? request.body.bytes()) ?? [], as: UTF8.self))",
            ]
            return .text(lines.joined(separator: "\n"))
        }
    }

    @Test func forwardedFieldsAreBelievedOnlyFromTrustedProxies() async throws {
        let forwarded = ["X-Forwarded-For": "203.0.113.9, 198.51.100.7", "X-Forwarded-Proto": "https"]
        let direct = try await TestServer.start(Self.echo)
        let directPort = direct.port
        let untrusted = try await onThread { try RawHTTPClient.request(port: directPort, "/x", headers: forwarded) }
        #expect(untrusted.text.contains("client=127.0.0.1\n"), "anyone can write X-Forwarded-For: it proves nothing")
        #expect(untrusted.text.contains("secure=false"))
        try await direct.stop()

        let proxied = try await TestServer.start(trustedProxies: TrustedProxies(list: "127.0.0.1, ::1")!, Self.echo)
        let proxiedPort = proxied.port
        let trusted = try await onThread { try RawHTTPClient.request(port: proxiedPort, "/x", headers: forwarded) }
        #expect(trusted.text.contains("remote=127.0.0.1\n"))
        #expect(trusted.text.contains("client=198.51.100.7\n"), "the right-most hop the proxy saw, not what the client wrote before it")
        #expect(trusted.text.contains("secure=true"))
        let plain = try await onThread { try RawHTTPClient.request(port: proxiedPort, "/x") }
        #expect(plain.text.contains("client=127.0.0.1\n") && plain.text.contains("secure=false"))
        try await proxied.stop()
        #expect(TrustedProxies(list: "127.0.0.1, not-an-address") == nil)
    }

    /// A second server on a port that one already serves does not start: were it to share the
    /// port, it would silently take part of the first one's connections.
    @Test func aServerDoesNotStartOnAPortAnotherServes() async throws {
        let first = try await TestServer.start(Self.echo)
        enum Outcome { case started, failed(any Error), returned }
        let (outcomes, report) = AsyncStream<Outcome>.makeStream()
        let second = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: first.port),
            responder: ClosureResponder(Self.echo), onServerRunning: { _ in report.yield(.started) })
        var quiet = Logger(label: "second")
        quiet.logLevel = .critical  // the failure is expected: the test reads it, the log need not
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [second], logger: quiet))
        Task {
            do {
                try await group.run()
                report.yield(.returned)
            } catch { report.yield(.failed(error)) }
        }
        var iterator = outcomes.makeAsyncIterator()
        switch await iterator.next() {
        case .failed(let error):
            #expect("\(error)".contains("port in use"), "a start error that names the likely cause: \(error)")
        case .started:
            Issue.record("a second server started on a port the first one serves")
            await group.triggerGracefulShutdown()
        case .returned, nil:
            Issue.record("the second server returned without an error")
        }
        for _ in 0..<20 {
            #expect(try await first.assertServing().status == 200, "every connection still reaches the first")
        }
        try await first.stop()
    }

    @Test func twoRequestsShareOneKeptAliveConnection() async throws {
        let server = try await TestServer.start(Self.echo)
        let port = server.port
        try await onThread {
            let client = try RawHTTPClient(port: port)
            try client.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = try client.readReply()
            try client.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            let second = try client.readReply()
            #expect(first.status == 200 && first.text == "ok")
            #expect(second.status == 200 && second.text == "ok")
            #expect(first.header("connection")?.lowercased() != "close")
        }
        try await server.stop()
    }

    @Test func headAnswersHeadersWithoutBody() async throws {
        let server = try await TestServer.start(Self.echo)
        let port = server.port
        try await onThread {
            let client = try RawHTTPClient(port: port)
            try client.send("HEAD /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try client.readReply(head: true)
            #expect(head.status == 200)
            #expect(head.header("content-length") == "2")
            // The next answer on the same connection must start right away: no stray body bytes.
            try client.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readReply().text == "ok")
        }
        try await server.stop()
    }

    @Test func parsesMethodPathQueryHeadersCookiesAndRemoteAddress() async throws {
        let server = try await TestServer.start(Self.echo)
        let reply = try await onThread { [port = server.port] in
            try RawHTTPClient.request(
                port: port, "/caf%C3%A9/items?tag=a&q=two+words%21&tag=b", method: "POST",
                headers: ["x-custom": "yes", "Cookie": "session=abc123; theme=\"dark\""],
                body: Array("hello".utf8)
            )
        }
        #expect(reply.status == 200)
        #expect(
            reply.text == """
                method=POST
                path=/café/items
                tags=a,b
                q=two words!
                x-custom=yes
                session=abc123
                theme=dark
                remote=127.0.0.1
                client=127.0.0.1
                secure=false
                body=hello
                """)
        try await server.stop()
    }

    @Test func decodesUrlencodedAndMultipartForms() async throws {
        let server = try await TestServer.start(Self.echo)
        let port = server.port
        let urlencoded = try await onThread {
            try RawHTTPClient.request(
                port: port, "/form", method: "POST",
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Array("name=Ada+L&tag=x&tag=y&note=%3Cb%3E".utf8)
            )
        }
        #expect(urlencoded.text == "fields[name=Ada L&tag=x&tag=y&note=<b>] files[]")

        let boundary = "XyZ123"
        let multipartBody = [
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHello\r\n",
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"../../etc/passwd\"\r\nContent-Type: text/plain\r\n\r\nfile-bytes\r\n",
            "--\(boundary)--\r\n",
        ].joined()
        let multipart = try await onThread {
            try RawHTTPClient.request(
                port: port, "/form", method: "POST",
                headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
                body: Array(multipartBody.utf8)
            )
        }
        #expect(multipart.text == "fields[title=Hello] files[upload:passwd:10]")
        try await server.stop()
    }

    @Test func badFormBodiesAreClientErrors() async throws {
        let server = try await TestServer.start(Self.echo)
        let port = server.port
        let cases: [(String, String, Int)] = [
            ("text/plain", "a=b", 415),
            ("multipart/form-data", "--x\r\n", 400),
            ("multipart/form-data; boundary=x", "--x\r\nno-colon-here\r\n\r\nv\r\n--x--", 400),
            ("multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nnever closed", 400),
            ("application/x-www-form-urlencoded", "a=%ZZ", 400),
        ]
        for (contentType, body, status) in cases {
            let reply = try await onThread {
                try RawHTTPClient.request(port: port, "/form", method: "POST", headers: ["Content-Type": contentType], body: Array(body.utf8))
            }
            #expect(reply.status == status, "\(contentType) \(body)")
            #expect(reply.header("content-type")?.hasPrefix("text/html") == true)
        }
        #expect(try await server.assertServing().status == 200)
        try await server.stop()
    }

    @Test func unknownPathIs404AndUnknownMethodIs501() async throws {
        let server = try await TestServer.start { request in
            guard request.path == "/ok" else { throw HTTPError(.notFound) }
            return .text("ok")
        }
        let port = server.port
        let missing = try await onThread { try RawHTTPClient.request(port: port, "/missing") }
        #expect(missing.status == 404)
        #expect(missing.text.contains("<title>404 Not Found</title>"))

        for method in ["BREW", "TRACE", "CONNECT"] {
            let reply = try await onThread { try RawHTTPClient.request(port: port, "/ok", method: method) }
            #expect(reply.status == 501, "\(method)")
        }
        let json = try await onThread { try RawHTTPClient.request(port: port, "/missing", headers: ["Accept": "application/json"]) }
        #expect(json.status == 404)
        #expect(json.header("content-type") == "application/json; charset=utf-8")
        #expect(json.text == #"{"error":{"message":"Not Found","status":404}}"#)
        #expect(try await server.assertServing().status == 200)
        try await server.stop()
    }

    @Test func handlerErrorsBecome500WithoutInternals() async throws {
        struct SecretFailure: Error { let detail = "db password is hunter2" }
        let server = try await TestServer.start { request in
            if request.path == "/boom" { throw SecretFailure() }
            return .text("ok")
        }
        let reply = try await onThread { [port = server.port] in try RawHTTPClient.request(port: port, "/boom") }
        #expect(reply.status == 500)
        #expect(!reply.text.contains("hunter2"))
        #expect(try await server.assertServing().status == 200)
        try await server.stop()
    }

    @Test func twoHundredConcurrentConnectionsAreAllAnswered() async throws {
        let server = try await TestServer.start { _ in
            try await Task.sleep(for: .milliseconds(20))
            return .text("ok")
        }
        let port = server.port
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<200 {
                group.addTask { try await onThread { try RawHTTPClient.request(port: port, "/ok").status } }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 200)
        #expect(statuses.allSatisfy { $0 == 200 })
        try await server.stop()
    }
}
