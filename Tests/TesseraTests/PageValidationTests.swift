import Foundation
import Synchronization
import TesseraTesting
import TesseraViews
import Testing

@testable import Tessera

/// A repeat view answered 304 before its page loads (`PageValidators`), and never a stale or
/// someone else's page.
@Suite struct PageValidationTests {
    static let product = TopicFamily<Int>("product")

    static func html(_ text: String) -> HTMLOutput {
        var output = HTMLOutput()
        output.text(text)
        return output
    }

    /// Prices, how often a page read them, and a change to make right after the next read.
    final class Shop: Sendable {
        private let state = Mutex<(prices: [Int: Int], loads: Int, afterLoad: (@Sendable () -> Void)?)>(([1: 10, 2: 20], 0, nil))
        var loads: Int { state.withLock { $0.loads } }

        func load(_ id: Int) throws -> Int {
            let (price, after) = try state.withLock { state in
                defer { state.afterLoad = nil }
                state.loads += 1
                guard let price = state.prices[id] else { throw HTTPError(.notFound, message: "No such product.") }
                return (price, state.afterLoad)
            }
            after?()
            return price
        }

        /// A shared region's read, not counted among the page's loads.
        func price(_ id: Int) throws -> Int {
            guard let price = state.withLock({ $0.prices[id] }) else { throw HTTPError(.notFound, message: "No such product.") }
            return price
        }

        func set(_ id: Int, to price: Int) { state.withLock { $0.prices[id] = price } }
        func afterNextLoad(_ change: @escaping @Sendable () -> Void) { state.withLock { $0.afterLoad = change } }
    }

    /// What the page's second region is, one kind per route.
    enum Note: Sendable {
        case none
        /// A region of the visitor's own that asks the session, live on the product.
        case visitor
        /// A region of the visitor's own that declares nothing.
        case undeclared
        /// A region that fails.
        case failing
    }

    struct ProductPage: PageController {
        let shop: Shop
        let id: Int
        var note = Note.none
        var declared = true

        var freshness: PageFreshness { declared ? .until([PageValidationTests.product(id)]) : .undeclared }

        func load(_ context: RequestContext) async throws -> Int {
            await Task.yield()
            return try shop.load(id)
        }

        func render(_ price: Int, in context: RequestContext) -> Page {
            Page(title: "Product \(id)", body: context.render(LiveCounterPageView.self, "Product \(id) at \(price)"))
        }

        func regions(for price: Int, in context: RequestContext) -> LiveCounterPageView.Regions<Region> {
            let note: Region? =
                switch self.note {
                case .none: nil
                case .visitor: Region(source: nil, controller: VisitorNote(id: id))
                case .undeclared: Region(source: nil, controller: PlainNote())
                case .failing: Region(source: nil, controller: FailingNote(id: id))
                }
            return LiveCounterPageView.Regions(counter: Region(shared: Routes.price, id, in: context), note: note)
        }
    }

    struct PriceTag: SharedRegion {
        typealias View = TextFragmentView
        let shop: Shop

        func keptUntil(_ id: Int) -> [Topic] { [PageValidationTests.product(id)] }

        func load(_ id: Int, in context: SharedRegionContext) async throws -> String {
            "costs \(try shop.price(id))"
        }
    }

    struct VisitorNote: RegionController {
        let id: Int
        var topics: [Topic] { [PageValidationTests.product(id)] }

        func render(in context: RequestContext) async throws -> HTMLOutput {
            PageValidationTests.html("for \(context.session["user"] ?? "a visitor")")
        }
    }

    struct PlainNote: RegionController {
        func render(in context: RequestContext) async throws -> HTMLOutput {
            PageValidationTests.html("a note")
        }
    }

    struct FailingNote: RegionController {
        let id: Int
        var topics: [Topic] { [PageValidationTests.product(id)] }

        func render(in context: RequestContext) async throws -> HTMLOutput {
            throw HTTPError(.serviceUnavailable, message: "Down.")
        }
    }

    enum Routes {
        static let page = Route<Int>("page", .get, "/products/{id}")
        static let visitor = Route<Int>("visitor", .get, "/visitor/{id}")
        static let undeclaredPage = Route<Int>("undeclared.page", .get, "/undeclared/{id}")
        static let undeclaredRegion = Route<Int>("undeclared.region", .get, "/plain-note/{id}")
        static let failing = Route<Int>("failing", .get, "/failing/{id}")
        static let signIn = Route<NoParameters>("signin", .get, "/signin")
        static let price = Route<Int>("price", .get, "/prices/{id}")
    }

    static func app(_ shop: Shop, validators: PageValidators = .pages()) throws -> (Application, LiveRegions) {
        let live = LiveRegions()
        var app = ApplicationBuilder()
        app.live = live
        app.pageValidators = validators
        app.routes.page(Routes.page) { id, _ in ProductPage(shop: shop, id: id) }
        app.routes.sharedRegion(Routes.price, PriceTag(shop: shop))
        app.routes.page(Routes.visitor) { id, _ in ProductPage(shop: shop, id: id, note: .visitor) }
        app.routes.page(Routes.undeclaredPage) { id, _ in ProductPage(shop: shop, id: id, declared: false) }
        app.routes.page(Routes.undeclaredRegion) { id, _ in ProductPage(shop: shop, id: id, note: .undeclared) }
        app.routes.page(Routes.failing) { id, _ in ProductPage(shop: shop, id: id, note: .failing) }
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

    @Test func aRepeatViewWithItsETagIsAnswered304BeforeThePageLoads() async throws {
        let shop = Shop()
        let (application, _) = try Self.app(shop)
        try await application.test(.live) { client in
            let first = try await client.send("/products/1")
            #expect(first.status == 200 && first.text.contains("costs 10"))
            let eTag = try #require(first.header("etag"))
            #expect(eTag.hasPrefix("W/\""), "weak: the gzip form is the same version")
            #expect(shop.loads == 1)

            let repeated = try await client.send("/products/1", headers: ["If-None-Match": eTag])
            #expect(repeated.status == 304)
            #expect(repeated.body.isEmpty)
            #expect(repeated.header("etag") == eTag)
            #expect(repeated.header("vary")?.contains("Accept-Language") == true, "the 304 says what the page varies with")
            #expect(shop.loads == 1, "nothing loaded for the 304")

            let head = try await client.send("/products/1", method: "HEAD", headers: ["If-None-Match": "\"other\", " + eTag])
            #expect(head.status == 304, "HEAD, and a list that names it among others")
            let gzip = try await client.send("/products/1", headers: ["If-None-Match": eTag, "Accept-Encoding": "gzip"])
            #expect(gzip.status == 304)
            #expect(gzip.header("vary")?.contains("Accept-Encoding") == true, "as the 200 does")
            #expect(shop.loads == 1)

            let other = try await client.send("/products/1", headers: ["If-None-Match": "W/\"something-else\""])
            #expect(other.status == 200 && other.header("etag") == eTag)
            let json = try await client.send("/products/1", headers: ["If-None-Match": eTag, "Accept": "application/json"])
            #expect(json.status == 200, "the JSON form is another answer: \(json.status)")
            let german = try await client.send("/products/1", headers: ["If-None-Match": eTag, "Accept-Language": "de"])
            #expect(german.status != 304, "another language is another page")
            let otherProduct = try await client.send("/products/2", headers: ["If-None-Match": eTag])
            #expect(otherProduct.status == 200 && otherProduct.text.contains("costs 20"))
        }
    }

    @Test func aPublishedTopicEndsTheVersionAndTheNextViewRenders() async throws {
        let shop = Shop()
        let (application, live) = try Self.app(shop)
        try await application.test { client in
            let eTag = try #require(try await client.send("/products/1").header("etag"))
            live.publish(Self.product(2))
            #expect(try await client.send("/products/1", headers: ["If-None-Match": eTag]).status == 304, "another product's change")
            #expect(shop.loads == 1)

            // Published, but the page is the same: it renders, and its bytes still match.
            live.publish(Self.product(1))
            #expect(try await client.send("/products/1", headers: ["If-None-Match": eTag]).status == 304)
            #expect(shop.loads == 2, "rendered again to find out")
            #expect(try await client.send("/products/1", headers: ["If-None-Match": eTag]).status == 304)
            #expect(shop.loads == 2, "and kept again")

            shop.set(1, to: 11)
            live.publish(Self.product.any)
            let changed = try await client.send("/products/1", headers: ["If-None-Match": eTag])
            #expect(changed.status == 200 && changed.text.contains("costs 11"))
            let newTag = try #require(changed.header("etag"))
            #expect(newTag != eTag)
            #expect(try await client.send("/products/1", headers: ["If-None-Match": newTag]).status == 304)
        }
    }

    @Test func aVersionReadWhileATopicWasPublishedIsNotKept() async throws {
        let shop = Shop()
        let (application, live) = try Self.app(shop)
        try await application.test { client in
            // The page reads 10; the change commits and is published before the page is done.
            shop.afterNextLoad {
                shop.set(1, to: 11)
                live.publish(Self.product(1))
            }
            let raced = try await client.send("/products/1")
            #expect(raced.text.contains("Product 1 at 10"), "what the page read")
            let eTag = try #require(raced.header("etag"))
            let next = try await client.send("/products/1", headers: ["If-None-Match": eTag])
            #expect(next.status == 200 && next.text.contains("costs 11"), "the raced version was not kept: \(next.status)")
        }
    }

    /// A page that asks the session, and finds none, is private (a signed-in visitor would be
    /// answered otherwise), but every visitor without a session shares its version.
    @Test func aPageThatAsksTheSessionIsPrivateAndSharedByVisitorsWithoutOne() async throws {
        let shop = Shop()
        let (application, _) = try Self.app(shop)
        try await application.test { client in
            let first = try await client.send("/visitor/1")
            #expect(first.header("set-cookie") == nil, "nothing kept: no session")
            let eTag = try #require(first.header("etag"))
            #expect(first.header("cache-control") == "private, no-cache")
            let repeated = try await client.send("/visitor/1", headers: ["If-None-Match": eTag])
            #expect(repeated.status == 304)
            #expect(repeated.header("cache-control") == "private, no-cache")

            let stranger = TestClient(client.transport)
            let theirs = try await stranger.send("/visitor/1", headers: ["If-None-Match": eTag])
            #expect(theirs.status == 304, "the same bytes for every visitor without a session")
        }
    }

    @Test func aSessionThatHoldsValuesGetsNoVersion() async throws {
        let shop = Shop()
        let (application, _) = try Self.app(shop)
        try await application.test { client in
            let eTag = try #require(try await client.send("/products/1").header("etag"))
            _ = try await client.send("/signin")
            let signedIn = try await client.send("/products/1", headers: ["If-None-Match": eTag])
            #expect(signedIn.status == 200)
            #expect(signedIn.header("etag") == nil)
        }
    }

    @Test func undeclaredOrFailedPartsLeaveThePageUnvalidated() async throws {
        let shop = Shop()
        let (application, _) = try Self.app(shop)
        try await application.test { client in
            for path in ["/undeclared/1", "/plain-note/1", "/failing/1"] {
                let page = try await client.send(path)
                #expect(page.status == 200, "\(path)")
                #expect(page.header("etag") == nil, "\(path) has a part that says nothing of what it depends on, or failed")
            }
        }
    }

    @Test func appsWithoutLiveRegionsOrWithNoRoomValidateNothing() async throws {
        let shop = Shop()
        let (none, _) = try Self.app(shop, validators: .pages(maxBytes: 0))
        try await none.test { client in
            let page = try await client.send("/products/1")
            #expect(page.status == 200 && page.header("etag") == nil)
        }
        var app = ApplicationBuilder()
        app.routes.page(Routes.page) { id, _ in ProductPage(shop: shop, id: id) }
        app.routes.sharedRegion(Routes.price, PriceTag(shop: shop))
        try await app.build().test { client in
            let page = try await client.send("/products/1")
            #expect(page.status == 200 && page.header("etag") == nil, "nothing would tell it what is published")
        }
    }

    @Test func cacheControlDirectivesAreMatchedWholeAndWithoutCase() {
        let field = CacheControlField("Private, max-age=0,no-store ")
        #expect(field.has("private"))
        #expect(field.has("no-store"))
        #expect(field.has("max-age"))
        #expect(!field.has("no-cache"))
        #expect(!CacheControlField("not-private, no-stored").has("private"), "a directive, not a substring")
        #expect(!CacheControlField("not-private, no-stored").has("no-store"))
        #expect(!CacheControlField("").has("private"))
    }

    @Test func theIfNoneMatchListIsComparedWeakly() {
        let list = EntityTagList(" \"a\" ,W/\"b\"")
        #expect(list.matches("\"a\""))
        #expect(list.matches("W/\"a\""))
        #expect(list.matches("\"b\""))
        #expect(!list.matches("\"c\""))
        #expect(EntityTagList("*").matches("W/\"anything\""))
        #expect(!EntityTagList("").matches("\"a\""))
        #expect(!EntityTagList("W/").matches("\"\""))
    }
}
