import Foundation
import Synchronization
import TesseraTesting
import TesseraViews
import Testing

@testable import Tessera

/// Shared regions kept until a topic they depend on is published (`SharedRegion.keptUntil`).
@Suite struct RegionCacheTests {
    // MARK: The cache alone

    static func html(_ text: String) -> RegionFragment {
        var output = HTMLOutput()
        output.text(text)
        return RegionFragment(output)
    }

    static let product = TopicFamily<Int>("product")
    static let order = TopicFamily<Int>("order")

    @Test func aFragmentIsKeptUntilOneOfItsTopicsIsPublished() {
        let cache = RegionCache.regions()
        cache.store(Self.html("three"), for: "detail.3 en", until: [Self.product(3)], since: cache.generation)
        cache.store(Self.html("four"), for: "detail.4 en", until: [Self.product(4)], since: cache.generation)
        #expect(cache.value(for: "detail.3 en")?.html.bytes == Self.html("three").html.bytes)
        #expect(cache.value(for: "detail.3 en")?.version == Self.html("three").version, "kept with its version")
        #expect(cache.value(for: "detail.3 de") == nil, "another language is another fragment")

        cache.invalidate([Self.order(3), Self.product(5)])
        #expect(cache.count == 2, "other topics leave both")
        cache.invalidate([Self.product(3)])
        #expect(cache.value(for: "detail.3 en") == nil)
        #expect(cache.value(for: "detail.4 en") != nil)
    }

    @Test func aFamilysAnyTopicHearsEveryKeyAndAPublishedFamilyEndsEveryKey() {
        let cache = RegionCache.regions()
        cache.store(Self.html("related"), for: "related.3 en", until: [Self.product.any], since: cache.generation)
        cache.store(Self.html("detail"), for: "detail.3 en", until: [Self.product(3)], since: cache.generation)
        cache.store(Self.html("order"), for: "order.1 en", until: [Self.order(1)], since: cache.generation)
        cache.invalidate([Self.product(7)])
        #expect(cache.value(for: "related.3 en") == nil, "a list of products hears any product")
        #expect(cache.value(for: "detail.3 en") != nil)

        cache.invalidate([Self.product.any])
        #expect(cache.value(for: "detail.3 en") == nil, "every product changed")
        #expect(cache.value(for: "order.1 en") != nil)
    }

    @Test func aRenderThatRanWhileATopicWasPublishedIsNotKept() {
        let cache = RegionCache.regions()
        let before = cache.generation
        // The render read the old state; meanwhile a change committed and was published.
        cache.invalidate([Self.product(3)])
        cache.store(Self.html("stale"), for: "detail.3 en", until: [Self.product(3)], since: before)
        #expect(cache.value(for: "detail.3 en") == nil)
        cache.store(Self.html("fresh"), for: "detail.3 en", until: [Self.product(3)], since: cache.generation)
        #expect(cache.value(for: "detail.3 en") != nil)
    }

    @Test func theOldestGoFirstWhenRoomIsNeededAndAFragmentTooLargeIsNotKept() {
        // Each fragment takes 300 bytes of HTML, its key (8) and 64 of bookkeeping: 372. Eight
        // fit in 3,200 bytes, and each may take an eighth of them (400).
        let cache = RegionCache.regions(maxBytes: 3_200)
        let fragment = Self.html(String(repeating: "x", count: 300))
        for id in 1...8 { cache.store(fragment, for: "detail.\(id)", until: [Self.product(id)], since: cache.generation) }
        #expect(cache.count == 8)
        cache.store(fragment, for: "detail.9", until: [Self.product(9)], since: cache.generation)
        #expect(cache.count == 8)
        #expect(cache.value(for: "detail.1") == nil, "the oldest went")
        #expect(cache.value(for: "detail.2") != nil && cache.value(for: "detail.9") != nil)
        cache.invalidate([Self.product(1)])  // its topic is no longer filed: nothing to end
        #expect(cache.count == 8)

        let small = RegionCache.regions(maxBytes: 2_000)
        small.store(fragment, for: "detail.1", until: [], since: small.generation)
        #expect(small.count == 0, "one fragment may take an eighth of the room")
    }

    @Test func aFragmentOlderThanMaxAgeIsRenderedAgain() async throws {
        // An age far above any pause a busy machine makes between two lines of this test.
        let cache = RegionCache.regions(maxAge: .seconds(1))
        cache.store(Self.html("kept"), for: "detail.1", until: [], since: cache.generation)
        #expect(cache.value(for: "detail.1") != nil)
        try await Task.sleep(for: .milliseconds(1_100))
        #expect(cache.value(for: "detail.1") == nil)
        #expect(cache.count == 0)
    }

    @Test func nothingIsKeptWhileChangesCannotBeHeard() {
        let cache = RegionCache.regions()
        cache.stopKeeping()
        cache.store(Self.html("kept"), for: "detail.1", until: [], since: cache.generation)
        #expect(cache.count == 0, "a bus that has not started listening")
        cache.startKeeping()
        cache.store(Self.html("kept"), for: "detail.1", until: [], since: cache.generation)
        #expect(cache.count == 1)
        let before = cache.generation
        cache.stopKeeping()
        #expect(cache.count == 0, "what was kept may miss a change from now on")
        cache.startKeeping()
        cache.store(Self.html("stale"), for: "detail.1", until: [], since: before)
        #expect(cache.count == 0, "a render begun before the interruption is not kept")
    }

    // MARK: Within an app

    /// Prices anyone may see, and how often the shared region read them.
    final class Prices: Sendable {
        private let state = Mutex<(prices: [Int: Int], renders: Int, afterRead: (@Sendable () -> Void)?)>(([1: 10, 2: 20], 0, nil))
        var renders: Int { state.withLock { $0.renders } }
        /// A region's read: counted; `afterRead` runs once after it.
        func price(_ id: Int) -> Int? {
            let (price, after) = state.withLock { state in
                defer { state.afterRead = nil }
                state.renders += 1
                return (state.prices[id], state.afterRead)
            }
            after?()
            return price
        }
        func set(_ id: Int, to price: Int) { state.withLock { $0.prices[id] = price } }
        func afterNextRead(_ change: @escaping @Sendable () -> Void) { state.withLock { $0.afterRead = change } }
    }

    struct PriceRegion: SharedRegion {
        typealias View = TextFragmentView
        let prices: Prices

        func topics(_ id: Int) -> [Topic] { [RegionCacheTests.product(id)] }
        func keptUntil(_ id: Int) -> [Topic] { topics(id) }

        func load(_ id: Int, in context: SharedRegionContext) async throws -> String {
            guard let price = prices.price(id) else { throw HTTPError(.notFound, message: "No such price.") }
            return "price \(price) in \(context.language.code), render \(prices.renders)."
        }
    }

    enum VisitorKey: RequestValueKey {
        typealias Value = String
    }

    /// Names the visitor from its cookie, as a sign-in step would.
    struct VisitorMiddleware: Middleware {
        func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
            context[VisitorKey.self] = context.request.cookies["visitor"]
            return .next
        }
    }

    struct PricePage: PageController {
        let prices: Prices
        let id: Int

        func load(_ context: RequestContext) async throws {}
        func render(_: Void, in context: RequestContext) -> Page {
            Page(title: "Price \(id)", body: context.render(LiveCounterPageView.self, "Price \(id)"))
        }
        func regions(for _: Void, in context: RequestContext) -> LiveCounterPageView.Regions<Region> {
            LiveCounterPageView.Regions(
                counter: Region(shared: Routes.value, id, in: context),
                note: Region(source: nil, controller: VisitorRegion()))
        }
    }

    /// A region of the visitor's own, beside the shared one: it sees the session and the name.
    struct VisitorRegion: RegionController {
        func render(in context: RequestContext) async throws -> HTMLOutput {
            RegionCacheTests.html("yours: session \(context.session.id ?? "none"), visitor \(context[VisitorKey.self] ?? "nobody")").html
        }
    }

    enum Routes {
        static let page = Route<Int>("price.page", .get, "/prices/{id}")
        static let value = Route<Int>("price.value", .get, "/prices/{id}/value")
        static let fault = Route<Int>("price.fault", .get, "/prices/{id}/fault")
    }

    /// What no error step knows: a fault of the server.
    struct LedgerUnreadable: Error {}

    static func app(_ prices: Prices, cache: RegionCache = .regions()) throws -> (Application, LiveRegions) {
        let live = LiveRegions()
        var app = ApplicationBuilder()
        app.live = live
        app.regionCache = cache
        app.routes.page(Routes.page) { id, _ in PricePage(prices: prices, id: id) }
        app.routes.sharedRegion(Routes.value, PriceRegion(prices: prices))
        app.routes.action(Routes.fault) { _, _ in throw LedgerUnreadable() }
        let sessions = SessionConfiguration(secret: Data(repeating: 7, count: 32))
        let application = try app.build(middleware: [
            SessionMiddleware(sessions), VisitorMiddleware(),
            LanguageMiddleware(languages: [Language("en", currencies: ["EUR"]), Language("de", currencies: ["EUR"])]), ErrorPageMiddleware(),
        ])
        return (application, live)
    }

    @Test func aSharedRegionRendersOncePerLanguageUntilItsTopicIsPublished() async throws {
        let prices = Prices()
        let (application, live) = try Self.app(prices)
        try await application.test { client in
            for _ in 1...3 {
                let page = try await client.send("/prices/1", headers: ["Accept-Language": "en"])
                #expect(page.text.contains("price 10 in en, render 1."), "\(page.text)")
            }
            let german = try await client.send("/prices/1", headers: ["Accept-Language": "de"])
            #expect(german.text.contains("price 10 in de, render 2."))
            let alone = try await client.send("/prices/1/value", headers: ["Accept-Language": "en"])
            #expect(alone.text == "price 10 in en, render 1.", "the region's own URL shares the kept fragment")
            #expect(prices.renders == 2)

            prices.set(1, to: 11)
            live.publish(Self.product(2))
            let unchanged = try await client.send("/prices/1", headers: ["Accept-Language": "en"])
            #expect(unchanged.text.contains("price 10 in en"), "another product's change")
            live.publish(Self.product(1))
            let english = try await client.send("/prices/1", headers: ["Accept-Language": "en"])
            #expect(english.text.contains("price 11 in en, render 3."))
            let germanAgain = try await client.send("/prices/1", headers: ["Accept-Language": "de"])
            #expect(germanAgain.text.contains("price 11 in de, render 4."))
        }
    }

    @Test func aFragmentWhoseReadRacedAPublishedChangeIsNotKept() async throws {
        let prices = Prices()
        let (application, live) = try Self.app(prices)
        try await application.test { client in
            // The region reads 10; the change commits and is published before it renders.
            prices.afterNextRead {
                prices.set(1, to: 11)
                live.publish(Self.product(1))
            }
            let raced = try await client.send("/prices/1")
            #expect(raced.text.contains("price 10 in en, render 1."), "what the region read")
            let next = try await client.send("/prices/1")
            #expect(next.text.contains("price 11 in en, render 2."), "the raced render was not kept: \(next.text)")
            let kept = try await client.send("/prices/1")
            #expect(kept.text.contains("price 11 in en, render 2."))
        }
    }

    @Test func replacedFragmentsLeaveNoBookkeepingBehind() {
        let cache = RegionCache.regions()
        for round in 1...10_000 {
            cache.store(Self.html("round \(round)"), for: "detail.1", until: [Self.product(1)], since: cache.generation)
        }
        #expect(cache.count == 1)
        #expect(cache.queuedArrivals <= 2 + 64 + 1, "\(cache.queuedArrivals) arrivals queued for one fragment")
    }

    @Test func visitorsShareTheRegionAndKeepTheirOwn() async throws {
        let prices = Prices()
        let (application, _) = try Self.app(prices)
        try await application.test { client in
            for visitor in ["alice", "bob"] {
                let page = try await client.send("/prices/2", headers: ["Cookie": "visitor=\(visitor)"])
                #expect(page.text.contains("price 20 in en, render 1."), "one render for both: \(page.text)")
                let yours = try #require(page.text.firstMatch(of: /yours: session ([^,]+), visitor (\w+)/))
                #expect(yours.1 != "none" && yours.2 == visitor, "the visitor's own region sees the session and the name")
            }
        }
    }

    /// A kept region carries its version, found once when it was kept; a page asked for by its
    /// navigation script, which names the versions it shows, gets those regions empty, marked
    /// `data-region-same`, and the others whole. Such an answer is the visitor's alone:
    /// private, not stored, varying on the header, with no validator.
    @Test func regionsThePageHoldsAreLeftOut() async throws {
        let prices = Prices()
        let (application, _) = try Self.app(prices)
        try await application.test { client in
            let whole = try await client.send("/prices/2")
            let version = try #require(Markup(whole.text).first("data-region", equalTo: "counter")?["data-region-version"])
            #expect(Markup(whole.text).first("data-region", equalTo: "note")?["data-region-version"] == nil, "a visitor's own region has none")

            let partial = try await client.send("/prices/2", headers: ["Tessera-Regions": "\(version) made-up"])
            #expect(partial.status == 200)
            let counter = try #require(Markup(partial.text).first("data-region", equalTo: "counter"))
            #expect(counter["data-region-version"] == version && counter["data-region-same"] == "true")
            #expect(partial.text.contains(#"data-region-same="true"></div>"#), "sent empty")
            #expect(!partial.text.contains("price 20 in en"), "the region the page holds is not sent")
            #expect(partial.text.contains("yours: session"), "the visitor's own region is")
            #expect(partial.header("cache-control") == "private, no-store")
            #expect(partial.header("vary")?.contains("Tessera-Regions") == true)
            #expect(partial.header("etag") == nil)
            #expect(prices.renders == 1, "the kept fragment and its version served both pages")

            // A header a client made up gets the page whole; so does one that names nothing.
            for made in ["<script>", String(repeating: "x", count: 40), "   ", String(repeating: "\(version)! ", count: 100)] {
                let page = try await client.send("/prices/2", headers: ["Tessera-Regions": made])
                #expect(page.status == 200)
                #expect(!page.text.contains("data-region-same"), "\(made)")
                #expect(page.text.contains("price 20 in en"))
            }
        }
    }

    @Test func withTheCacheOffEveryRequestRendersTheRegion() async throws {
        let prices = Prices()
        let (application, _) = try Self.app(prices, cache: .regions(maxBytes: 0))
        try await application.test { client in
            for render in 1...3 {
                let page = try await client.send("/prices/1", headers: ["Cookie": "visitor=alice"])
                #expect(page.text.contains("price 10 in en, render \(render)."), "\(page.text)")
            }
        }
    }

    @Test func aFailedRenderIsNotKept() async throws {
        let prices = Prices()
        let (application, _) = try Self.app(prices)
        try await application.test { client in
            let missing = try await client.send("/prices/9/value")
            #expect(missing.status == 404)
            prices.set(9, to: 90)
            let found = try await client.send("/prices/9/value")
            #expect(found.text.hasPrefix("price 90"), "no price was not kept")
        }
    }

    @Test func aFaultOfTheServerIsA500PageInTheVisitorsLanguageAndEnglishJSON() async throws {
        let (application, _) = try Self.app(Prices())
        try await application.test { client in
            let german = try await client.send("/prices/1/fault", headers: ["Accept-Language": "de"])
            #expect(german.status == 500)
            #expect(german.text.contains("Bei uns ist etwas schiefgegangen."), "\(german.text)")
            #expect(!german.text.contains("LedgerUnreadable"))
            let json = try await client.send("/prices/1/fault", headers: ["Accept-Language": "de", "Accept": "application/json"])
            #expect(json.text == #"{"error":{"message":"Something went wrong on our side.","status":500}}"#)
        }
    }

    @Test func aFailedRegionLeavesTheDefaultNoteInTheVisitorsLanguage() async throws {
        let (application, _) = try Self.app(Prices())
        try await application.test { client in
            let german = try await client.send("/prices/8", headers: ["Accept-Language": "de"])
            #expect(german.status == 200)
            #expect(
                german.text.contains(
                    #"data-region-failed="true"><p class="region-failed" role="status">Dieser Teil der Seite konnte nicht geladen werden.</p>"#),
                "\(german.text)")
            let english = try await client.send("/prices/8")
            #expect(english.text.contains("This part of the page could not be loaded."))
        }
    }
}
