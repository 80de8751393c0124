import TesseraHTTP
import TesseraTesting
import Testing

@Suite struct PreparedResponseTests {
    static let hello = PreparedResponse(text: "hello")

    @Test func servedManyTimesConcurrentlyWithTheSameBytes() async throws {
        let server = try await TestServer.start { request in
            switch request.path {
            case "/tagged":
                var response = Self.hello.response
                response.headers[.init("X-Extra")!] = "yes"
                return response
            case "/created":
                var response = Self.hello.response
                response.status = .created
                return response
            default:
                return Self.hello.response
            }
        }
        let port = server.port
        let replies = try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for _ in 0..<50 { group.addTask { try await onThread { try RawHTTPClient.request(port: port, "/") } } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(replies.count == 50)
        #expect(replies.allSatisfy { $0.status == 200 && $0.text == "hello" && $0.header("content-type") == "text/plain; charset=utf-8" })

        // Changed after it was taken: sent as changed, with the same body.
        let tagged = try await onThread { try RawHTTPClient.request(port: port, "/tagged") }
        #expect(tagged.header("x-extra") == "yes")
        #expect(tagged.text == "hello")
        let created = try await onThread { try RawHTTPClient.request(port: port, "/created") }
        #expect(created.status == 201)
        #expect(created.text == "hello")
        // And the shared one was not changed by them.
        let plain = try await onThread { try RawHTTPClient.request(port: port, "/") }
        #expect(plain.header("x-extra") == nil)
        #expect(plain.status == 200)

        let head = try await onThread { try RawHTTPClient.request(port: port, "/", method: "HEAD") }
        #expect(head.status == 200 && head.header("content-length") == "5")
        try await server.stop()
    }
}
