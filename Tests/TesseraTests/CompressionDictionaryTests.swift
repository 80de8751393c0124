import CZstd
import Foundation
import TesseraTesting
import Testing

@testable import Tessera
@testable import TesseraHTTP

/// Compression dictionaries (RFC 9842): made of the first kept page of each route, announced to
/// browsers that take zstd, and a page sent `dcz` against the one a browser names, which must
/// decode to the page itself. What a client names is checked, never trusted.
@Suite struct CompressionDictionaryTests {
    static let page = Array(("<!DOCTYPE html><html><body>" + String(repeating: "<p>the same markup</p>", count: 80) + "</body></html>").utf8)

    /// `dcz` decoded as a browser does: the magic, the dictionary's digest, then zstd against it.
    static func decode(_ encoded: [UInt8], with dictionary: CompressionDictionary) throws -> [UInt8] {
        try #require(Array(encoded.prefix(8)) == CompressionDictionary.magic, "the dcz magic")
        try #require(Array(encoded.dropFirst(8).prefix(32)) == dictionary.digest, "the dictionary's SHA-256")
        let frame = Array(encoded.dropFirst(40))
        return [UInt8](unsafeUninitializedCapacity: 1 << 20) { buffer, count in
            let written = frame.withUnsafeBytes { source in
                dictionary.bytes.withUnsafeBytes { dictionaryBytes in
                    ZSTD_decompress_usingDict(
                        ZSTD_createDCtx(), buffer.baseAddress, buffer.count, source.baseAddress, source.count, dictionaryBytes.baseAddress,
                        dictionaryBytes.count)
                }
            }
            count = ZSTD_isError(written) == 0 ? written : 0
        }
    }

    @Test func aPageCompressedAgainstTheDictionaryDecodesToItself() throws {
        let dictionary = try #require(CompressionDictionary(Self.page))
        let next = Array(String(decoding: Self.page, as: UTF8.self).replacingOccurrences(of: "<body>", with: "<body><h1>Another</h1>").utf8)
        let encoded = try #require(dictionary.compress(next))
        #expect(try Self.decode(encoded, with: dictionary) == next)
        #expect(encoded.count * 10 < next.count, "only what differs travels: \(encoded.count) bytes of \(next.count)")
        #expect(dictionary.path.hasPrefix("/_tessera/dictionary/") && dictionary.path.count == "/_tessera/dictionary/".count + 16)
        #expect(dictionary.availableValue.hasPrefix(":") && dictionary.availableValue.hasSuffix(":"))
    }

    static let product = TopicFamily<Int>("lamp")

    @Test func theDictionaryTakesTheFirstPageOfEachRouteUpToItsBound() throws {
        let dictionaries = CompressionDictionaries(maxBytes: 100)
        #expect(dictionaries.current == nil)
        dictionaries.offer(Array(repeating: 1, count: 40), of: "product", until: [Self.product(1)])
        let first = try #require(dictionaries.current)
        #expect(first.bytes.count == 40)
        dictionaries.offer(Array(repeating: 2, count: 40), of: "product", until: [Self.product(2)])
        #expect(dictionaries.current === first, "one page of each route")
        dictionaries.offer(Array(repeating: 3, count: 40), of: "home", until: [])
        let second = try #require(dictionaries.current)
        #expect(second.bytes == Array(repeating: 1, count: 40) + Array(repeating: 3, count: 40))
        dictionaries.offer(Array(repeating: 4, count: 40), of: "cart", until: [])
        #expect(dictionaries.current === second, "past its bound no page is added")
        dictionaries.offer(Array(repeating: 5, count: 51), of: "search", until: [])
        #expect(dictionaries.current === second, "no page takes more than half of it")
        #expect(dictionaries.dictionary(at: first.path) === first, "an older one stays answerable for browsers that hold it")

        let none = CompressionDictionaries(maxBytes: 0)
        none.offer(Self.page, of: "product", until: [])
        #expect(none.current == nil && !none.isOn)
    }

    /// A page's content is served from a dictionary no longer than its kept copy: once a topic it
    /// shows is published, every dictionary that holds it is withdrawn, and the next is made
    /// without it; and none is served while publications may be missed.
    @Test func aPublishedChangeWithdrawsTheDictionariesThatHoldThePage() throws {
        let dictionaries = CompressionDictionaries(maxBytes: 1000)
        dictionaries.offer(Array("product one, before".utf8), of: "product", until: [Self.product(1)])
        let withProduct = try #require(dictionaries.current)
        dictionaries.offer(Array("the home page".utf8), of: "home", until: [])
        let withBoth = try #require(dictionaries.current)

        dictionaries.invalidate([Self.product(2)])
        #expect(dictionaries.current === withBoth, "another product's change leaves it")
        dictionaries.invalidate([Self.product(1)])
        #expect(dictionaries.dictionary(at: withProduct.path) == nil && dictionaries.dictionary(at: withBoth.path) == nil)
        let withoutProduct = try #require(dictionaries.current)
        #expect(withoutProduct.bytes == Array("the home page".utf8))
        dictionaries.offer(Array("product one, after".utf8), of: "product", until: [Self.product(1)])
        #expect(dictionaries.current?.bytes == Array("the home pageproduct one, after".utf8), "the route's page comes back as it is now")

        dictionaries.stopKeeping()
        #expect(dictionaries.current == nil && dictionaries.dictionary(at: withoutProduct.path) == nil)
        dictionaries.offer(Array("the home page".utf8), of: "home", until: [])
        #expect(dictionaries.current == nil, "nothing is made while publications may be missed")
        dictionaries.startKeeping()
        dictionaries.offer(Array("the home page".utf8), of: "home", until: [])
        #expect(dictionaries.current != nil)
    }

    @Test func onlyARequestThatNamesAKnownDictionaryAndTakesDczGetsOne() throws {
        let dictionaries = CompressionDictionaries()
        dictionaries.offer(Self.page, of: "product", until: [])
        let dictionary = try #require(dictionaries.current)
        func request(_ fields: [(String, String)]) throws -> Request {
            var headers = RequestHeaders()
            for (name, value) in fields { headers.append(name: name, value: value) }
            return try Request(method: .get, target: "/", headers: headers)
        }
        let named = ("Available-Dictionary", dictionary.availableValue)
        #expect(try dictionaries.dictionary(for: request([named, ("Accept-Encoding", "gzip, br, zstd, dcb, dcz")])) === dictionary)
        #expect(try dictionaries.dictionary(for: request([named, ("Accept-Encoding", "gzip, zstd")])) == nil, "no dcz, no dictionary")
        #expect(try dictionaries.dictionary(for: request([named, ("Accept-Encoding", "dcz;q=0, gzip")])) == nil)
        #expect(try dictionaries.dictionary(for: request([named, ("Accept-Encoding", "*")])) == nil, "dcz only when named")
        #expect(try dictionaries.dictionary(for: request([("Accept-Encoding", "dcz")])) == nil)
        for madeUp in [":AAAA:", "not a digest", ":" + String(repeating: "A", count: 4000) + ":", ""] {
            #expect(
                try dictionaries.dictionary(for: request([("Available-Dictionary", madeUp), ("Accept-Encoding", "dcz")])) == nil,
                "\(madeUp.prefix(20))")
        }
    }

    /// A kept product page, long enough to be worth compressing; `?who=` is written into it.
    struct LongPage: KeptPage {
        let id: Int
        var keptUntil: [Topic] { [CompressionDictionaryTests.product(id)] }

        func load(_ context: KeptPageContext) async throws -> Int { id }

        func render(_ id: Int, in context: KeptPageContext) -> Page {
            let text = "Product \(id): " + String(repeating: "a lamp of brass, made to last. ", count: 24) + (context.query["who"] ?? "")
            return Page(title: "Product \(id)", body: context.render(KeptPagesTests.Text.self, text))
        }
    }

    static func app() throws -> Application {
        var app = ApplicationBuilder()
        app.live = LiveRegions()
        app.routes.keptPage(Route<Int>("long", .get, "/long/{id}")) { id in LongPage(id: id) }
        app.routes.action(Route<NoParameters>("signin", .get, "/signin")) { _, context in
            context.session["user"] = "ada"
            return .text("signed in")
        }
        let sessions = SessionConfiguration(secret: Data(repeating: 7, count: 32))
        return try app.build(middleware: [SessionMiddleware(sessions), CompressionMiddleware(), ErrorPageMiddleware()])
    }

    /// Through an app: the kept page announces the dictionary to a browser that takes zstd,
    /// serves it, and answers the next page `dcz` against it; a client that names a dictionary
    /// the app does not have gets gzip, and a page with a query never goes into one.
    @Test func aKeptPageIsSentAgainstTheDictionaryTheBrowserHolds() async throws {
        let application = try Self.app()
        try await application.test(.live) { client in
            let chromium = ["Accept-Encoding": "gzip, deflate, br, zstd"]
            let planted = try await client.send("/long/3?who=planted", headers: chromium)
            #expect(planted.status == 200 && planted.header("link") == nil, "a page with a query teaches no dictionary")

            let first = try await client.send("/long/1", headers: chromium)
            let link = try #require(first.header("link"), "announced to a browser that takes zstd")
            #expect(first.header("vary") == "Accept-Language, Cookie, Accept-Encoding, Available-Dictionary")
            #expect(try await client.send("/long/1", headers: ["Accept-Encoding": "gzip"]).header("link") == nil)
            let path = String(link.dropFirst().prefix { $0 != ">" })
            #expect(link == "<\(path)>; rel=\"compression-dictionary\"")

            let fetched = try await client.send(path)
            #expect(fetched.status == 200)
            #expect(fetched.header("use-as-dictionary") == "match=\"/*\"")
            #expect(fetched.header("cache-control") == "public, max-age=86400")
            let dictionary = try #require(CompressionDictionary(fetched.body))
            #expect(dictionary.path == path, "the path names the bytes it serves")
            #expect(!fetched.text.contains("planted"))

            let whole = try await client.send("/long/2")
            let held = ["Accept-Encoding": "gzip, deflate, br, zstd, dcb, dcz", "Available-Dictionary": dictionary.availableValue]
            let next = try await client.send("/long/2", headers: held)
            #expect(next.status == 200)
            #expect(next.header("content-encoding") == "dcz")
            #expect(next.header("etag") == nil)
            #expect(next.header("vary") == "Accept-Language, Cookie, Accept-Encoding, Available-Dictionary")
            #expect(try Self.decode(next.body, with: dictionary) == whole.body, "the page, byte for byte")
            #expect(next.body.count * 4 < whole.body.count, "\(next.body.count) bytes of \(whole.body.count)")

            let madeUp = try await client.send("/long/2", headers: ["Accept-Encoding": "gzip, dcz", "Available-Dictionary": ":AAAA:"])
            #expect(madeUp.status == 200 && madeUp.header("content-encoding") == "gzip")
            #expect(try await client.send("/_tessera/dictionary/0123456789abcdef").status == 404)

            // Product 1 changes: its page leaves the dictionary, which is withdrawn.
            application.parts.keptPages?.invalidate([Self.product(1)])
            #expect(try await client.send(path).status == 404)
            let stale = try await client.send("/long/2", headers: held)
            #expect(stale.header("content-encoding") == "gzip", "a withdrawn dictionary is no longer used")
        }
    }

    /// A page rendered for a visitor with a session goes into no dictionary, and is sent
    /// against one her browser holds by the compression step.
    @Test func aSignedInVisitorsPageIsSentAgainstTheDictionaryButNeverInIt() async throws {
        let application = try Self.app()
        try await application.test(.live) { client in
            _ = try await client.send("/signin")
            let signedIn = try await client.send("/long/1?who=secret")
            #expect(signedIn.status == 200 && signedIn.text.contains("secret"))
            #expect(application.parts.keptPages?.dictionaries.current == nil, "nothing rendered for a visitor goes into a dictionary")

            let stranger = TestClient(client.transport)
            _ = try await stranger.send("/long/2", headers: ["Accept-Encoding": "zstd"])
            let dictionary = try #require(application.parts.keptPages?.dictionaries.current)
            let held = ["Accept-Encoding": "gzip, dcz", "Available-Dictionary": dictionary.availableValue]
            let plain = try await client.send("/long/1?who=secret")
            let compressed = try await client.send("/long/1?who=secret", headers: held)
            #expect(compressed.header("content-encoding") == "dcz")
            #expect(try Self.decode(compressed.body, with: dictionary) == plain.body)
            #expect(!String(decoding: dictionary.bytes, as: UTF8.self).contains("secret"))
        }
    }
}
