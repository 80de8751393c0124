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

    @Test func theDictionaryTakesTheFirstPageOfEachRouteUpToItsBound() throws {
        let dictionaries = CompressionDictionaries(maxBytes: 100)
        #expect(dictionaries.current == nil)
        dictionaries.offer(Array(repeating: 1, count: 40), of: "product")
        let first = try #require(dictionaries.current)
        #expect(first.bytes.count == 40)
        dictionaries.offer(Array(repeating: 2, count: 40), of: "product")
        #expect(dictionaries.current === first, "one page of each route")
        dictionaries.offer(Array(repeating: 3, count: 40), of: "home")
        let second = try #require(dictionaries.current)
        #expect(second.bytes == Array(repeating: 1, count: 40) + Array(repeating: 3, count: 40))
        dictionaries.offer(Array(repeating: 4, count: 40), of: "cart")
        #expect(dictionaries.current === second, "past its bound no page is added")
        #expect(dictionaries.dictionary(at: first.path) === first, "an older one stays answerable for browsers that hold it")

        let none = CompressionDictionaries(maxBytes: 0)
        none.offer(Self.page, of: "product")
        #expect(none.current == nil && !none.isOn)
    }

    @Test func onlyARequestThatNamesAKnownDictionaryAndTakesDczGetsOne() throws {
        let dictionaries = CompressionDictionaries()
        dictionaries.offer(Self.page, of: "product")
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

    /// Through an app: the kept page announces the dictionary to a browser that takes zstd,
    /// serves it for a year, and answers the next page `dcz` against it; a client that names a
    /// dictionary the app does not have gets gzip.
    @Test func aKeptPageIsSentAgainstTheDictionaryTheBrowserHolds() async throws {
        let (application, _) = try KeptPagesTests.app(KeptPagesTests.Shop())
        try await application.test(.live) { client in
            let chromium = ["Accept-Encoding": "gzip, deflate, br, zstd"]
            let first = try await client.send("/kept/1?filler=x", headers: chromium)
            let link = try #require(first.header("link"), "announced to a browser that takes zstd")
            #expect(first.header("vary") == "Accept-Language, Cookie, Accept-Encoding, Available-Dictionary")
            #expect(try await client.send("/kept/1?filler=x", headers: ["Accept-Encoding": "gzip"]).header("link") == nil)
            let path = String(link.dropFirst().prefix { $0 != ">" })
            #expect(link == "<\(path)>; rel=\"compression-dictionary\"")

            let fetched = try await client.send(path)
            #expect(fetched.status == 200)
            #expect(fetched.header("use-as-dictionary") == "match=\"/*\"")
            #expect(fetched.header("cache-control") == "public, max-age=31536000, immutable")
            let dictionary = try #require(CompressionDictionary(fetched.body))
            #expect(dictionary.path == path, "the path names the bytes it serves")

            let whole = try await client.send("/kept/2?filler=y")
            let held = ["Accept-Encoding": "gzip, deflate, br, zstd, dcb, dcz", "Available-Dictionary": dictionary.availableValue]
            let next = try await client.send("/kept/2?filler=y", headers: held)
            #expect(next.status == 200)
            #expect(next.header("content-encoding") == "dcz")
            #expect(next.header("etag") == nil)
            #expect(try Self.decode(next.body, with: dictionary) == whole.body, "the page, byte for byte")
            #expect(next.body.count * 4 < whole.body.count, "\(next.body.count) bytes of \(whole.body.count)")

            let madeUp = try await client.send("/kept/2?filler=y", headers: ["Accept-Encoding": "gzip, dcz", "Available-Dictionary": ":AAAA:"])
            #expect(madeUp.status == 200 && madeUp.header("content-encoding") == "gzip")
            #expect(try await client.send("/_tessera/dictionary/0123456789abcdef").status == 404)
        }
    }

    /// A page rendered for a visitor with a session goes into no dictionary, and is sent
    /// against one her browser holds by the compression step.
    @Test func aSignedInVisitorsPageIsSentAgainstTheDictionaryButNeverInIt() async throws {
        let (application, _) = try KeptPagesTests.app(KeptPagesTests.Shop())
        try await application.test(.live) { client in
            _ = try await client.send("/signin")
            let signedIn = try await client.send("/kept/1?filler=secret")
            #expect(signedIn.status == 200)
            #expect(application.parts.keptPages?.dictionaries.current == nil, "nothing rendered for a visitor goes into a dictionary")

            let stranger = TestClient(client.transport)
            _ = try await stranger.send("/kept/2?filler=x", headers: ["Accept-Encoding": "zstd"])
            let dictionary = try #require(application.parts.keptPages?.dictionaries.current)
            let held = ["Accept-Encoding": "gzip, dcz", "Available-Dictionary": dictionary.availableValue]
            let plain = try await client.send("/kept/1?filler=secret")
            let compressed = try await client.send("/kept/1?filler=secret", headers: held)
            #expect(compressed.header("content-encoding") == "dcz")
            #expect(try Self.decode(compressed.body, with: dictionary) == plain.body)
            #expect(dictionary.bytes.count < 2000 && !String(decoding: dictionary.bytes, as: UTF8.self).contains("secret"))
        }
    }
}
