import Foundation
import TesseraTesting
import TesseraViews
import Testing

@testable import Tessera

/// Rate limits: the rule's notation, the window's count in the store, and the 429 page a route
/// group answers past it.
@Suite struct RateLimitTests {
    @Test func rulesReadTheNotationOperatorsWrite() {
        #expect(RateLimitRule("10/hour") == RateLimitRule(limit: 10, per: .seconds(3600)))
        #expect(RateLimitRule("30/minute") == RateLimitRule(limit: 30, per: .seconds(60)))
        #expect(RateLimitRule("1/second")?.description == "1/second")
        #expect(RateLimitRule("5/day")?.window == .seconds(86_400))
        for bad in ["", "10", "0/hour", "-1/hour", "ten/hour", "10/fortnight", "10/hour/x", "10/Hour", "1000001/day", " 10/hour"] {
            #expect(RateLimitRule(bad) == nil, "\(bad)")
        }
    }

    @Test func aWindowCountsFromItsFirstRequestAndEndsWhenItExpires() async throws {
        let limit = RateLimit("test", RateLimitRule(limit: 2, per: .seconds(60)), by: .clientAddress, store: MemoryRateLimitStore())
        let start = Date()
        try await limit.count("k", now: start)
        try await limit.count("k", now: start + 10)
        let refusal = await #expect(throws: RateLimited.self) { try await limit.count("k", now: start + 20) }
        #expect(refusal?.retryAfterSeconds == 40)
        try await limit.count("other", now: start + 20)
        // The window ends a minute after its first request, and a new one starts.
        try await limit.count("k", now: start + 60)
        try await limit.count("k", now: start + 61)
        await #expect(throws: RateLimited(retryAfter: 59)) { try await limit.count("k", now: start + 61) }
    }

    @Test func theStoreForgetsExpiredKeysFirstAndStaysBounded() async throws {
        let store = MemoryRateLimitStore(maxKeys: 4)
        let start = Date()
        for index in 0..<4 {
            try await store.update(["old\(index)"], now: start, within: .outsideRequest) {
                $0["old\(index)"] = RateLimitCount(hits: 1, lastHit: start, expires: start + 1)
            }
        }
        try await store.update(["new"], now: start + 2, within: .outsideRequest) {
            $0["new"] = RateLimitCount(hits: 1, lastHit: start + 2, expires: start + 60)
        }
        #expect(store.keptKeys == 1)
        let seen = try await store.update(["old0", "new"], now: start + 2, within: .outsideRequest) { $0 }
        #expect(seen.keys.sorted() == ["new"], "an expired count is absent")
    }

    @Test func aLimitedGroupAnswers429InTheVisitorsLanguageAndOtherRoutesPayNothing() async throws {
        var app = ApplicationBuilder()
        let byHeader = RateLimitKey { $0.request.headers[HTTPField.Name("X-Who")!] }
        app.routes.action(Route<NoParameters>("open", .get, "/open")) { _, _ in .text("open") }
        app.routes.group(app.rateLimit("signup", RateLimitRule(limit: 2, per: .seconds(3600)), by: byHeader)) { limited in
            limited.action(Route<NoParameters>("signup", .post, "/signup")) { _, _ async in .text("welcome") }
        }
        let languages = [Language("en", currencies: ["EUR"]), Language("de", currencies: ["EUR"])]
        let application = try app.build(
            middleware: [
                SessionMiddleware(SessionConfiguration(secret: Data(repeating: 3, count: 32))), LanguageMiddleware(languages: languages),
                ErrorPageMiddleware(),
            ], routeMiddleware: [])
        try await application.test { client in
            for _ in 1...2 { #expect(try await client.send("/signup", method: "POST", headers: ["X-Who": "ada"]).text == "welcome") }
            let refused = try await client.send("/signup", method: "POST", headers: ["X-Who": "ada", "Accept-Language": "de"])
            #expect(refused.status == 429)
            #expect(refused.header("retry-after").flatMap(Int.init).map { (3590...3600).contains($0) } == true)
            #expect(refused.header("content-type")?.hasPrefix("text/html") == true)
            #expect(refused.text.contains("Zu viele Anfragen. Bitte warten Sie 60 Minuten"))
            let english = try await client.send("/signup", method: "POST", headers: ["X-Who": "ada", "Accept": "application/json"])
            #expect(english.text.contains("Too many requests. Please wait 60 minutes"))
            #expect(try await client.send("/signup", method: "POST", headers: ["X-Who": "grace"]).text == "welcome", "each key counts alone")
            #expect(try await client.send("/signup", method: "POST").text == "welcome", "no key: not counted")
            for _ in 1...5 { #expect(try await client.send("/open").text == "open") }
        }
    }
}
