import Foundation
import Tessera
import TesseraTesting
import Testing

/// `CompressionMiddleware` over real HTTP: negotiated gzip for pages, streamed pages flushed
/// region by region, `Vary` on every compressible answer, and `HEAD` that agrees with `GET`.
@Suite struct CompressionTests {
    static func app() throws -> Application {
        var app = ApplicationBuilder()
        app.register(ShopModule())
        app.register(PurchasesModule())
        let sessions = SessionConfiguration(secret: Data(repeating: 3, count: 32))
        // The test pages are short; the default minimum would leave them alone.
        return try app.build(middleware: [CompressionMiddleware(minimumLength: 100), SessionMiddleware(sessions), ErrorPageMiddleware()])
    }

    @Test func pagesAreGzippedOnlyForClientsThatAskAndAlwaysVary() async throws {
        let server = try await RouterTests.start(Self.app())
        let plain = try await RouterTests.get(server.port, "/pages/1?buffered")
        #expect(plain.header("content-encoding") == nil)
        #expect(plain.header("vary") == "Accept-Encoding")
        #expect(plain.text.contains("slow content"))

        for acceptEncoding in ["gzip", "br, gzip;q=0.5", "*", "*;q=0, gzip", "GZIP"] {
            let gzipped = try await RouterTests.get(server.port, "/pages/1?buffered", headers: ["Accept-Encoding": acceptEncoding])
            #expect(gzipped.header("content-encoding") == "gzip", "\(acceptEncoding)")
            #expect(gzipped.header("vary") == "Accept-Encoding")
            #expect(gzipped.body.count < plain.body.count)
            #expect(gzipped.decodedText == plain.text, "the same page, compressed")
        }
        for refusal in ["br", "gzip;q=0", "gzip;Q=0", "identity", "gzip;q=0, *"] {
            let reply = try await RouterTests.get(server.port, "/pages/1?buffered", headers: ["Accept-Encoding": refusal])
            #expect(reply.header("content-encoding") == nil, "\(refusal)")
            #expect(reply.text == plain.text)
        }
        // Error pages are pages too.
        let missing = try await RouterTests.get(server.port, "/nothing/here", headers: ["Accept-Encoding": "gzip"])
        #expect(missing.status == 404)
        #expect(missing.header("content-encoding") == "gzip")
        #expect(missing.decodedText?.contains("404") == true)
        try await server.stop()
    }

    @Test func shortAndIncompressibleAnswersAreLeftAlone() async throws {
        let server = try await RouterTests.start(Self.app())
        // `/items/…` answers a text/plain body shorter than the minimum.
        let short = try await RouterTests.get(server.port, "/items/\(UUID().uuidString.lowercased())", headers: ["Accept-Encoding": "gzip"])
        #expect(short.status == 200)
        #expect(short.header("content-encoding") == nil)
        #expect(short.header("vary") == nil, "the same for every client")
        try await server.stop()
    }

    @Test func aStreamedPageIsCompressedAndFlushedRegionByRegion() async throws {
        let server = try await RouterTests.start(Self.app())
        let port = server.port
        // The slow region waits until the fast one has been read: each flush must be decodable
        // on its own, so the fast region is readable while the slow one is still missing.
        let gate = UUID().uuidString
        let (head, body, fastSeenBeforeSlow) = try await onThread {
            let client = try RawHTTPClient(port: port)
            try client.send("GET /pages/7?slowMs=0&slowGate=\(gate) HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
            let head = try client.readHead()
            var received: [UInt8] = []
            var fastSeenBeforeSlow = false
            let body = try client.readChunked { chunk in
                received += chunk
                let decoded = String(decoding: Gunzip.decompress(received, allowingTruncation: true) ?? [], as: UTF8.self)
                if !fastSeenBeforeSlow, decoded.contains("fast &lt;content&gt;"), !decoded.contains("slow content") {
                    fastSeenBeforeSlow = true
                    Task { await RegionGates.shared.open(gate) }
                }
            }
            return (head, body, fastSeenBeforeSlow)
        }
        #expect(head.header("content-encoding") == "gzip")
        #expect(head.header("transfer-encoding") == "chunked")
        #expect(fastSeenBeforeSlow, "the fast region arrived decodable before the slow one was rendered")
        let text = String(decoding: try #require(Gunzip.decompress(body)), as: UTF8.self)
        #expect(text.contains("slow content") && text.contains("end of page"))
        try await server.stop()
    }

    @Test func headOnAStreamedPageSaysTheLengthGetSends() async throws {
        let server = try await RouterTests.start(Self.app())
        let port = server.port
        for acceptEncoding in [nil, "gzip"] as [String?] {
            let extra = acceptEncoding.map { "Accept-Encoding: \($0)\r\n" } ?? ""
            let (head, get, next) = try await onThread {
                let client = try RawHTTPClient(port: port)
                try client.send("HEAD /pages/2?slowMs=200 HTTP/1.1\r\nHost: x\r\n\(extra)\r\n")
                let head = try client.readReply(head: true)
                // The same connection goes on: no stray chunk terminator after the head.
                try client.send("GET /pages/2?slowMs=200 HTTP/1.1\r\nHost: x\r\n\(extra)\r\n")
                let get = try client.readReply()
                try client.send("GET /items/\(UUID().uuidString.lowercased()) HTTP/1.1\r\nHost: x\r\n\r\n")
                return (head, get, try client.readReply())
            }
            #expect(head.status == 200)
            #expect(head.header("transfer-encoding") == nil)
            #expect(head.header("content-encoding") == get.header("content-encoding"))
            let length = try #require(head.header("content-length").flatMap(Int.init))
            if acceptEncoding == nil {
                #expect(length == get.body.count, "HEAD says the length GET sends")
            } else {
                // Each flush of a streamed page adds a few bytes of gzip framing, and how many
                // flushes there are depends on which regions were ready when: close, not equal.
                #expect(abs(length - get.body.count) <= 64, "HEAD \(length), GET \(get.body.count)")
            }
            #expect(next.status == 200, "the connection is still in step")
        }
        try await server.stop()
    }
}
