import Foundation
import Synchronization
import TesseraTesting
import TesseraViews
import Testing

@testable import Tessera

/// Whole pages kept for visitors without a session (`KeptPages`): rendered once for nobody,
/// answered to everyone without a session cookie, dropped the moment a topic they show is
/// published, never holding anything of a visitor, and bounded in bytes.
@Suite struct KeptPagesTests {
    static let product = TopicFamily<Int>("product")

    /// Prices, how often a page loaded them, and a gate a load may wait at.
    final class Shop: Sendable {
        private let state = Mutex<(prices: [Int: Int], loads: Int)>(([1: 10, 2: 20], 0))
        let gate = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let gated = Mutex(false)
        var loads: Int { state.withLock { $0.loads } }

        func load(_ id: Int) async throws -> Int {
            let price = try state.withLock { state in
                state.loads += 1
                guard let price = state.prices[id] else { throw HTTPError(.notFound, message: "No such product.") }
                return price
            }
            if gated.withLock({ $0 }) { await withCheckedContinuation { continuation in gate.withLock { $0 = continuation } } }
            return price
        }

        func set(_ id: Int, to price: Int) { state.withLock { $0.prices[id] = price } }

        /// Holds the next loads until ``open()``.
        func close() { gated.withLock { $0 = true } }
        func open() {
            gated.withLock { $0 = false }
            gate.withLock { $0 }?.resume()
        }
        var isWaitingAtGate: Bool { gate.withLock { $0 != nil } }
    }

    enum Text: HTMLView {
        static func render(_ model: String, into output: inout HTMLOutput) {
            output.write(static: "<p>")
            output.text(model)
            output.write(static: "</p>")
        }
    }

    /// "Product 1 at 10", a page kept until the product changes.
    struct ProductPage: KeptPage {
        let shop: Shop
        let id: Int

        var keptUntil: [Topic] { [KeptPagesTests.product(id)] }

        func load(_ context: KeptPageContext) async throws -> Int { try await shop.load(id) }

        func render(_ price: Int, in context: KeptPageContext) -> Page {
            let filler = context.query["filler"].map { String(repeating: $0, count: 600) } ?? ""
            return Page(title: "Product \(id)", body: context.render(Text.self, "Product \(id) at \(price) in \(context.language.code) \(filler)"))
        }
    }

    /// The same product with regions another module provides, which declare nothing they show.
    struct NotedPage: KeptPage {
        let shop: Shop
        let id: Int

        var keptUntil: [Topic] { [KeptPagesTests.product(id)] }

        func load(_ context: KeptPageContext) async throws -> Int { try await shop.load(id) }

        func render(_ price: Int, in context: KeptPageContext) -> Page {
            Page(title: "Product \(id)", body: context.render(LiveCounterPageView.self, "Product \(id) at \(price) with a note"))
        }

        func regions(for price: Int, in context: KeptPageContext) -> LiveCounterPageView.Regions<Region> {
            LiveCounterPageView.Regions(
                counter: context.region(providedFor: KeptPagesTests.note, input: id) ?? Region(source: nil, controller: Note()),
                note: nil)
        }
    }

    static let note = RegionKey<Int>("kept.note")

    /// A region of the visitor's own that declares no topics.
    struct Note: RegionController {
        func render(in context: RequestContext) async throws -> HTMLOutput { HTMLOutput() }
    }

    enum Routes {
        static let kept = Route<Int>("kept", .get, "/kept/{id}")
        static let undeclared = Route<Int>("undeclared", .get, "/undeclared/{id}")
        static let signIn = Route<NoParameters>("signin", .get, "/signin")
        static let flash = Route<NoParameters>("flash", .get, "/flash")
    }

    static func app(_ shop: Shop, kept: KeptPages = KeptPages()) throws -> (Application, LiveRegions) {
        let live = LiveRegions()
        var app = ApplicationBuilder()
        app.live = live
        app.keptPages = kept
        app.routes.keptPage(Routes.kept) { id in ProductPage(shop: shop, id: id) }
        app.routes.keptPage(Routes.undeclared) { id in NotedPage(shop: shop, id: id) }
        app.regions.provide(note, source: { _ in nil }) { _, _ in Note() }
        app.routes.action(Routes.signIn) { _, context in
            context.session["user"] = "ada"
            return .text("signed in")
        }
        let sessions = SessionConfiguration(secret: Data(repeating: 7, count: 32))
        let application = try app.build(middleware: [
            SessionMiddleware(sessions),
            LanguageMiddleware(languages: [Language("en", currencies: ["EUR"]), Language("de", currencies: ["EUR"])]),
            CompressionMiddleware(), ErrorPageMiddleware(),
        ])
        return (application, live)
    }

    @Test func aVisitorWithoutASessionGetsTheCopyKeptForEveryone() async throws {
        let shop = Shop()
        let (application, _) = try Self.app(shop)
        try await application.test(.live) { client in
            let first = try await client.send("/kept/1?filler=x")
            #expect(first.status == 200 && first.text.contains("Product 1 at 10 in en"))
            #expect(first.header("cache-control") == "public, no-cache", "proxies may keep it, asking each time")
            let eTag = try #require(first.header("etag"))
            #expect(!eTag.hasPrefix("W/"), "strong: the same bytes for everyone")
            #expect(first.header("vary") == "Accept-Language, Cookie, Accept-Encoding, Available-Dictionary")
            #expect(first.header("set-cookie") == nil)
            #expect(first.header("content-language") == "en")

            let stranger = TestClient(client.transport)
            let second = try await stranger.send("/kept/1?filler=x")
            #expect(second.body == first.body && second.header("etag") == eTag)
            #expect(shop.loads == 1, "rendered once, for nobody")

            let repeated = try await stranger.send("/kept/1?filler=x", headers: ["If-None-Match": eTag])
            #expect(repeated.status == 304 && repeated.body.isEmpty)
            #expect(repeated.header("etag") == eTag && repeated.header("cache-control") == "public, no-cache")
            let head = try await stranger.send("/kept/1?filler=x", method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty && head.header("etag") == eTag, "HEAD from the same copy")

            let gzip = try await stranger.send("/kept/1?filler=x", headers: ["Accept-Encoding": "gzip"])
            #expect(gzip.header("content-encoding") == "gzip")
            let gzipTag = try #require(gzip.header("etag"))
            #expect(gzipTag != eTag, "another representation, another strong validator")
            #expect(gzip.decodedBody == first.body)
            #expect(try await stranger.send("/kept/1?filler=x", headers: ["Accept-Encoding": "gzip", "If-None-Match": gzipTag]).status == 304)
            #expect(shop.loads == 1, "both encodings from one render")

            // Another query, another language: other copies.
            #expect(try await stranger.send("/kept/1?filler=y").text.contains("Product 1 at 10 in en"))
            #expect(try await stranger.send("/kept/1?filler=x", headers: ["Accept-Language": "de"]).text.contains("in de"))
            #expect(shop.loads == 3)
        }
    }

    @Test func aPublishedTopicEndsTheCopyAtOnce() async throws {
        let shop = Shop()
        let (application, live) = try Self.app(shop)
        try await application.test { client in
            let before = try await client.send("/kept/1")
            #expect(before.text.contains("at 10"))
            shop.set(1, to: 11)
            #expect(try await client.send("/kept/1").text.contains("at 10"), "nobody said it changed")
            live.publish([Self.product(1)])
            let after = try await client.send("/kept/1")
            #expect(after.text.contains("at 11"), "the next view after the change sees it")
            #expect(after.header("etag") != before.header("etag"))
            live.publish([Self.product(2)])
            _ = try await client.send("/kept/1")
            #expect(shop.loads == 2, "another product's change keeps this page")
        }
    }

    @Test func aVisitorWithASessionGetsThePageRenderedForThem() async throws {
        let shop = Shop()
        let (application, _) = try Self.app(shop)
        try await application.test { client in
            _ = try await client.send("/kept/1")
            #expect(shop.loads == 1)
            _ = try await client.send("/signin")
            for round in 1...2 {
                let page = try await client.send("/kept/1")
                #expect(page.status == 200)
                #expect(page.header("cache-control")?.hasPrefix("private") == true)
                #expect(shop.loads == 1 + round, "rendered for the visitor, every time")
            }
        }
    }

    @Test func concurrentMissesRenderOnce() async throws {
        let shop = Shop()
        let (application, _) = try Self.app(shop)
        try await application.test(.live) { client in
            shop.close()
            let pages = Task {
                try await withThrowingTaskGroup(of: TestResponse.self) { group in
                    for _ in 0..<12 { group.addTask { try await TestClient(client.transport).send("/kept/2") } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            // The first render waits at the gate; the others wait for it.
            while !shop.isWaitingAtGate { try await Task.sleep(for: .milliseconds(5)) }
            let kept = try #require(application.parts.keptPages)
            while kept.rendersAwaited < 11 { try await Task.sleep(for: .milliseconds(5)) }
            shop.open()
            let answers = try await pages.value
            #expect(answers.count == 12 && answers.allSatisfy { $0.status == 200 && $0.text.contains("Product 2 at 20") })
            #expect(shop.loads == 1, "twelve visitors at once, one render")
        }
    }

    @Test func onlyWholePagesWhosePartsSayWhatTheyShowAreKept() async throws {
        let shop = Shop()
        let (application, _) = try Self.app(shop)
        try await application.test { client in
            for round in 1...2 {
                let page = try await client.send("/undeclared/1")
                #expect(page.status == 200 && page.text.contains("with a note"))
                #expect(page.header("cache-control") != "public, no-cache")
                #expect(shop.loads == round, "a region that declares nothing keeps the page from being kept")
            }
            for round in 1...2 {
                #expect(try await client.send("/kept/99").status == 404)
                #expect(shop.loads == 2 + round, "a 404 is not kept")
            }
        }
    }

    /// However many pages are asked for, the copies stay within their bound: the least recently
    /// kept go first.
    @Test func theCopiesStayWithinTheirBound() async throws {
        let shop = Shop()
        let kept = KeptPages(maxBytes: 64 << 10)
        let (application, _) = try Self.app(shop, kept: kept)
        try await application.test { client in
            for page in 0..<300 {
                let status = try await client.send("/kept/1?filler=\(page % 10)&n=\(page)").status
                #expect(status == 200)
            }
        }
        #expect(kept.count > 0)
        #expect(kept.keptBytes <= 64 << 10, "\(kept.keptBytes) bytes kept")
        // A hundred thousand products' pages, kept directly: the bound holds all the same.
        let copy = try #require(KeptPageCopy(.html(Array(repeating: UInt8(ascii: "a"), count: 2_000)), topics: []))
        for id in 0..<100_000 {
            kept.keep(copy, for: KeptPageKey(site: "", target: "/products/\(id)", language: "en"), until: [Self.product(id)])
        }
        #expect(kept.keptBytes <= 64 << 10, "\(kept.keptBytes) bytes kept")
        #expect(kept.count < 100)
    }
}
