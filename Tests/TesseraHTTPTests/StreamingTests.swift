import Foundation
import TesseraHTTP
import TesseraTesting
import Testing

@Suite struct StreamingTests {
    @Test func streamedPartsArriveBeforeTheProducerFinishes() async throws {
        let (gate, opener) = AsyncStream<Void>.makeStream()
        let server = try await TestServer.start { request in
            if request.path == "/ok" { return .text("ok") }
            return Response(
                headers: [.contentType: "text/plain"],
                body: .stream { writer in
                    try await writer.write("first part;")
                    try await writer.flush()
                    var iterator = gate.makeAsyncIterator()
                    _ = await iterator.next()  // held until the test has seen the first part
                    try await writer.write("second part")
                })
        }
        let port = server.port
        let body = try await onThread {
            let client = try RawHTTPClient(port: port)
            try client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try client.readHead()
            #expect(head.status == 200)
            #expect(head.header("transfer-encoding") == "chunked")
            return try client.readChunked { chunk in
                if String(decoding: chunk, as: UTF8.self) == "first part;" { opener.yield() }
            }
        }
        #expect(String(decoding: body, as: UTF8.self) == "first part;second part")
        #expect(try await server.assertServing().status == 200)
        try await server.stop()
    }

    @Test func largeStreamSurvivesBackPressure() async throws {
        let server = try await TestServer.start { _ in
            Response(
                body: .stream { writer in
                    for index in 0..<200 {
                        try await writer.write(Array(repeating: UInt8(ascii: "a") + UInt8(index % 26), count: 10_000))
                        try await writer.flush()
                    }
                })
        }
        let body = try await onThread { [port = server.port] in try RawHTTPClient.request(port: port, "/big").body }
        #expect(body.count == 2_000_000)
        #expect(body[1_999_999] == UInt8(ascii: "a") + UInt8(199 % 26))
        try await server.stop()
    }

    @Test func headOnAStreamedRouteSaysItsLengthAndSendsNoBody() async throws {
        let server = try await TestServer.start { request in
            if request.path == "/ok" { return .text("ok") }
            return Response(
                body: .stream { writer in
                    try await writer.write("never sent")
                    try await writer.flush()
                })
        }
        let port = server.port
        let (head, next) = try await onThread {
            let client = try RawHTTPClient(port: port)
            try client.send("HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try client.readReply(head: true)
            // The same connection goes on: nothing of the body leaked into it.
            try client.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            return (head, try client.readHead())
        }
        #expect(head.status == 200)
        #expect(head.header("content-length") == "10", "rendered and discarded: the length GET sends")
        #expect(head.header("transfer-encoding") == nil)
        #expect(next.status == 200)
        try await server.stop()
    }
}
