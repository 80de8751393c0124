import Foundation
import Tessera
import TesseraTesting
import Testing

/// Live regions over real HTTP: a page, its stream, and changes published as a service would.
@Suite struct LiveRegionTests {
    struct Shop {
        let server: TestServer
        let live: LiveRegions
        let counters: Counters

        /// Changes counter `id` and publishes it, in that order, as a service does after its commit.
        func bump(_ id: Int) {
            counters.bump(id)
            live.publish(CounterTopics.counter(id))
        }
    }

    static func start(
        _ configuration: LiveRegions.Configuration = LiveRegions.Configuration(),
        limits: HTTPServerLimits = HTTPServerLimits(), shutdownGrace: Duration = .seconds(5),
        sessionLifetime: Duration = .seconds(3600)
    ) async throws -> Shop {
        let counters = Counters()
        let live = LiveRegions(configuration: configuration)
        var app = ApplicationBuilder()
        app.live = live
        app.register(CounterModule(counters: counters))
        let sessions = SessionConfiguration(secret: Data(repeating: 9, count: 32), maxAge: sessionLifetime)
        let application = try app.build(middleware: [CompressionMiddleware(minimumLength: 10), SessionMiddleware(sessions), ErrorPageMiddleware()])
        let server = try await TestServer.start(
            limits: limits, shutdownGrace: shutdownGrace, responder: application, errorResponder: application,
            services: application.services)
        return Shop(server: server, live: live, counters: counters)
    }

    /// A visitor's browser: its session cookie and who it is (the `visitor` cookie).
    final class Visitor: @unchecked Sendable {
        let port: Int
        let name: String
        private var session: String?

        init(_ name: String, port: Int) {
            self.name = name
            self.port = port
        }

        var cookies: String { ([session].compactMap { $0 } + ["visitor=\(name)"]).joined(separator: "; ") }

        func page(_ target: String) async throws -> TestResponse {
            let response = try await LiveTransport(port: port).execute(method: "GET", target: target, headers: [("Cookie", cookies)], body: [])
            if let setCookie = response.header("set-cookie") { session = String(setCookie.prefix { $0 != ";" }) }
            return response
        }

        func follow(_ target: String, headers: [String: String] = [:], timeout: TimeInterval = 10) async throws -> EventStreamClient {
            let (port, cookies) = (port, cookies)
            return try await onThread {
                try EventStreamClient.open(port: port, target, headers: headers.merging(["Cookie": cookies]) { $1 }, timeout: timeout)
            }
        }
    }

    static func streamURL(of page: TestResponse) throws -> String {
        try #require(Markup(page.text).first("data-live-stream")?["data-live-stream"])
    }

    static func version(of region: String, in page: TestResponse) throws -> String {
        try #require(Markup(page.text).first("data-region", equalTo: region)?["data-region-version"])
    }

    static func next(_ stream: EventStreamClient, comments: Bool = false) async throws -> EventStreamClient.Event? {
        try await onThread { try stream.next(comments: comments) }
    }

    @Test func aPageMarksItsLiveRegionsAndTheOneStreamThatFollowsThem() async throws {
        let shop = try await Self.start()
        let alice = Visitor("alice", port: shop.server.port)
        let page = try await alice.page("/counters/1")
        #expect(page.status == 200)
        let version = try Self.version(of: "counter", in: page)
        let url = try Self.streamURL(of: page)
        #expect(url == "/_live?src=/counters/1/value&v=\(version)")
        // A live region is announced politely when it changes.
        #expect(Markup(page.text).first("data-region", equalTo: "counter")?["aria-live"] == "polite")
        // The region without topics is not live: no version, not in the stream, not announced.
        #expect(page.text.contains(#"<div data-region="note" data-region-src="/counters/1/note">"#))
        #expect(page.text.components(separatedBy: "data-live-stream").count == 2, "one stream per page")
        try await shop.server.stop()
    }

    @Test func withNoStreamsPerClientPagesArePlainAndThereIsNoStream() async throws {
        let shop = try await Self.start(LiveRegions.Configuration(maxStreamsPerClient: 0))
        let alice = Visitor("alice", port: shop.server.port)
        let page = try await alice.page("/counters/1")
        #expect(page.status == 200)
        #expect(page.text.contains(#"<div data-region="counter" data-region-src="/counters/1/value">"#), "the region, not marked live")
        #expect(!page.text.contains("data-region-version") && !page.text.contains("data-live-stream"))
        let stream = try await alice.page("/_live?src=%2Fcounters%2F1%2Fvalue")
        #expect(stream.status == 404)
        try await shop.server.stop()
    }

    @Test func aSubscriberGetsTheRegionRenderedAgainAfterAPublish() async throws {
        let shop = try await Self.start()
        let alice = Visitor("alice", port: shop.server.port)
        let page = try await alice.page("/counters/1")
        let stream = try await alice.follow(try Self.streamURL(of: page))
        #expect(stream.head.status == 200)
        #expect(stream.head.header("content-type") == "text/event-stream; charset=utf-8")
        #expect(stream.head.header("x-accel-buffering") == "no")
        #expect(stream.head.header("cache-control") == "no-store")
        #expect(stream.head.header("content-encoding") == nil, "events must not wait in a compressor")

        shop.bump(1)
        let event = try #require(try await Self.next(stream))
        #expect(event.name == "region")
        let lines = event.data.split(separator: "\n", maxSplits: 1).map(String.init)
        let head = lines[0].split(separator: " ").map(String.init)
        #expect(head[1] == "/counters/1/value")
        #expect(head[0] != (try Self.version(of: "counter", in: page)))
        #expect(event.id == head[0], "the event's id is the versions the page now shows")
        #expect(lines[1].contains("<p>Count: 1</p>"))
        stream.close()
        try await shop.server.stop()
    }

    @Test func aChangeBetweenTheRenderAndTheSubscriptionIsSentAtOnce() async throws {
        let shop = try await Self.start()
        let alice = Visitor("alice", port: shop.server.port)
        let page = try await alice.page("/counters/1")
        #expect(page.text.contains("<p>Count: 0</p>"))
        shop.bump(1)  // nobody follows yet: the publish reaches no one
        let stream = try await alice.follow(try Self.streamURL(of: page))
        let event = try #require(try await Self.next(stream))
        #expect(event.data.contains("<p>Count: 1</p>"))

        // Subscribing with the versions a page shows sends nothing until something changes.
        let fresh = try await alice.page("/counters/1")
        let quiet = try await alice.follow(try Self.streamURL(of: fresh))
        shop.bump(1)
        #expect(try #require(try await Self.next(quiet)).data.contains("<p>Count: 2</p>"), "the first event is the change, not a copy of the page")
        stream.close()
        quiet.close()
        try await shop.server.stop()
    }

    @Test func aReconnectWithLastEventIDGetsWhatItMissed() async throws {
        let shop = try await Self.start()
        let alice = Visitor("alice", port: shop.server.port)
        let url = try Self.streamURL(of: try await alice.page("/counters/1"))
        let first = try await alice.follow(url)
        shop.bump(1)
        let seen = try #require(try await Self.next(first))
        first.close()

        shop.bump(1)  // while disconnected
        let again = try await alice.follow(url, headers: ["Last-Event-ID": try #require(seen.id)])
        let missed = try #require(try await Self.next(again))
        #expect(missed.data.contains("<p>Count: 2</p>"))
        again.close()

        // Up to date: the reconnect sends nothing until the next change.
        let current = try await alice.follow(url, headers: ["Last-Event-ID": try #require(missed.id)])
        shop.bump(1)
        #expect(try #require(try await Self.next(current)).data.contains("<p>Count: 3</p>"))
        current.close()
        try await shop.server.stop()
    }

    @Test func aStreamNeverCarriesARegionItsVisitorCannotSee() async throws {
        let shop = try await Self.start()
        let bob = Visitor("bob", port: shop.server.port)
        // Alice's counter alone: nothing bob may follow, said once, and the stream ends.
        let refused = try await bob.follow("/_live?src=%2Fcounters%2F1%2Fvalue")
        #expect(refused.head.status == 200)
        #expect(try await onThread { try refused.rest() }.map(\.name) == ["closed"])
        for _ in 0..<40 where shop.live.openStreams > 0 { try await Task.sleep(for: .milliseconds(50)) }
        #expect(shop.live.openStreams == 0, "a stream with nothing to follow leaves nothing behind")

        // His own and hers: only his ever comes.
        let stream = try await bob.follow("/_live?src=%2Fcounters%2F1%2Fvalue&src=%2Fcounters%2F2%2Fvalue")
        #expect(stream.head.status == 200)
        let initial = try #require(try await Self.next(stream), "no versions given: his region comes at once")
        #expect(initial.data.hasPrefix(initial.id!.split(separator: ",", omittingEmptySubsequences: false)[1] + " /counters/2/value"))
        shop.bump(1)
        shop.bump(2)
        let event = try #require(try await Self.next(stream))
        #expect(event.data.contains(" /counters/2/value\n"))
        #expect(event.data.contains("<p>Count: 1</p>"))
        #expect(event.id?.hasPrefix(",") == true, "alice's region has no version on bob's stream")
        stream.close()
        try await shop.server.stop()
    }

    @Test func eachSubscriberIsRenderedWithItsOwnSession() async throws {
        let shop = try await Self.start()
        let laptop = Visitor("alice", port: shop.server.port)
        let phone = Visitor("alice", port: shop.server.port)
        let laptopPage = try await laptop.page("/counters/1?device=laptop")
        let phonePage = try await phone.page("/counters/1?device=phone")
        let laptopStream = try await laptop.follow(try Self.streamURL(of: laptopPage))
        let phoneStream = try await phone.follow(try Self.streamURL(of: phonePage))
        shop.bump(1)
        let laptopEvent = try #require(try await Self.next(laptopStream))
        let phoneEvent = try #require(try await Self.next(phoneStream))
        #expect(laptopEvent.data.contains("<p>Device: laptop</p>"))
        #expect(phoneEvent.data.contains("<p>Device: phone</p>"))
        laptopStream.close()
        phoneStream.close()
        try await shop.server.stop()
    }

    @Test func aStreamWhoseSessionExpiredRendersAsForANewVisitor() async throws {
        // Re-renders start from the session the stream verified when it opened, not from a new
        // decode of its cookie: that must not outlive the cookie's own expiry.
        // Expiry counts whole seconds, so a 6 s session lasts more than 5 s: room for the first
        // re-render while the whole suite keeps both cores busy.
        let shop = try await Self.start(sessionLifetime: .seconds(6))
        let alice = Visitor("alice", port: shop.server.port)
        let page = try await alice.page("/counters/1?device=laptop")
        let received = ContinuousClock.now  // the session was issued before this: it ends within 6 s of it
        let stream = try await alice.follow(try Self.streamURL(of: page), timeout: 20)
        shop.bump(1)
        let fresh = try #require(try await Self.next(stream))
        #expect(fresh.data.contains("<p>Device: laptop</p>"), "still the page's session")
        try await Task.sleep(until: received + .seconds(7))
        shop.bump(1)
        let expired = try #require(try await Self.next(stream))
        #expect(expired.data.contains("<p>Device: none</p>"), "a new visitor's empty session")
        stream.close()
        try await shop.server.stop()
    }

    @Test func aStreamCannotOpenAnotherStreamHiddenInAnEncodedPath() async throws {
        // `/%5Flive` routes to the stream itself: followed as a region, it would open a stream
        // within the stream and push the visitor's own page out of its cap.
        let shop = try await Self.start(LiveRegions.Configuration(maxStreamsPerClient: 2))
        let alice = Visitor("alice", port: shop.server.port)
        let kept = try await alice.follow(try Self.streamURL(of: try await alice.page("/counters/1")))
        let nested = try await alice.follow("/_live?src=%2F%255Flive%3Fsrc%3D%252Fcounters%252F1%252Fvalue")
        #expect(nested.head.status == 200)
        #expect(try await onThread { try nested.rest() }.map(\.name) == ["closed"], "nothing to follow")
        shop.bump(1)
        #expect(try #require(try await Self.next(kept)).name == "region", "the page's own stream is still followed")
        kept.close()
        try await shop.server.stop()
    }

    @Test func heartbeatsKeepAQuietStreamOpenPastTheServerTimeouts() async throws {
        // Heartbeats forty times as often as the timeouts: the whole test suite runs at once on
        // two cores, and a heartbeat that cannot run for longer than the response timeout (the
        // cooperative threads all busy) lets the server cut the stream, as it would any stuck
        // answer; the page would reconnect and catch up, but this test is about the timeouts.
        let limits = HTTPServerLimits(idleTimeout: .seconds(4), responseTimeout: .seconds(4))
        let shop = try await Self.start(LiveRegions.Configuration(heartbeat: .milliseconds(100)), limits: limits)
        let alice = Visitor("alice", port: shop.server.port)
        let stream = try await alice.follow(try Self.streamURL(of: try await alice.page("/counters/1")), timeout: 5)
        var heartbeats = 0
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(9) {
            let event = try #require(try await Self.next(stream, comments: true), "the stream ended while idle")
            if event.comment == "heartbeat" { heartbeats += 1 }
        }
        #expect(heartbeats >= 3)
        shop.bump(1)
        var event = try #require(try await Self.next(stream, comments: true))
        while event.comment != nil { event = try #require(try await Self.next(stream, comments: true)) }
        #expect(event.data.contains("<p>Count: 1</p>"))
        stream.close()
        try await shop.server.stop()
    }

    @Test func aClientOverItsCapOfStreamsLosesItsOldest() async throws {
        let shop = try await Self.start(LiveRegions.Configuration(maxStreamsPerClient: 2))
        let alice = Visitor("alice", port: shop.server.port)
        let url = try Self.streamURL(of: try await alice.page("/counters/1"))
        let oldest = try await alice.follow(url)
        let second = try await alice.follow(url)
        let newest = try await alice.follow(url)
        #expect(newest.head.status == 200)
        let last = try await onThread { try oldest.rest() }
        #expect(last.map(\.name) == ["closed"], "the oldest stream is told why it ends, and ends")
        #expect(shop.live.openStreams == 2)

        // Another address has its own streams.
        let elsewhere = try await onThread {
            try EventStreamClient.open(port: shop.server.port, url, headers: ["Cookie": alice.cookies], from: "127.0.0.2")
        }
        #expect(elsewhere.head.status == 200)
        shop.bump(1)
        for stream in [second, newest, elsewhere] {
            #expect(try #require(try await Self.next(stream)).data.contains("<p>Count: 1</p>"))
            stream.close()
        }
        try await shop.server.stop()
    }

    @Test func aShutdownEndsEveryStreamWithoutWaitingForTheGracePeriod() async throws {
        let shop = try await Self.start(shutdownGrace: .seconds(30))
        let alice = Visitor("alice", port: shop.server.port)
        let url = try Self.streamURL(of: try await alice.page("/counters/1"))
        let stream = try await alice.follow(url)
        let start = ContinuousClock.now
        async let stopped: Void = shop.server.stop()
        #expect(try await onThread { try stream.rest() }.isEmpty, "the stream ends cleanly, with its last chunk")
        try await stopped
        #expect(ContinuousClock.now - start < .seconds(15), "the server did not wait out its 30 s grace for the stream")
    }

    @Test(arguments: [
        ("/_live", 400), ("/_live?src=https%3A%2F%2Fevil.example%2F", 400), ("/_live?src=%2F%2Fevil.example%2F", 400),
        ("/_live?" + Array(repeating: "src=%2Fcounters%2F1%2Fvalue", count: 17).joined(separator: "&"), 400),
        ("/_live?src=%2F_live%3Fsrc%3D%2Fcounters%2F1%2Fvalue", 400), ("/_live?src=%2Fcounters%2F1%2Fvalue%0Aevent%3A%20injected", 400),
        ("/_live?src=%2Fcounters%2F1%2Fnote", 200), ("/_live?src=%2Fnowhere", 200), ("/_live?src=%2Fcounters%2F1%2Fvalue&v=%3Cscript%3E", 200),
    ])
    func badStreamRequestsGetAClearAnswer(target: String, status: Int) async throws {
        let shop = try await Self.start()
        let alice = Visitor("alice", port: shop.server.port)
        let stream = try await alice.follow(target)
        #expect(stream.head.status == status, "\(target)")
        if target.contains("v=") {
            // A malformed version is no version: the region comes at once.
            #expect(try #require(try await Self.next(stream)).data.contains("<p>Count: 0</p>"))
        } else if status == 200 {
            // Not a live region (no topics, no route): nothing to follow, and it ends.
            #expect(try await onThread { try stream.rest() }.map(\.name) == ["closed"])
        }
        stream.close()
        _ = try await shop.server.assertServing(path: "/counters/2")
        try await shop.server.stop()
    }
}
