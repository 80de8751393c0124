import Foundation
import Tessera
import TesseraTesting
import Testing

/// Pages made of regions, each served by a child controller.
@Suite struct RegionTests {
    static func start(withPurchases: Bool = true) async throws -> TestServer {
        let app = try RouterTests.app(withPurchases: withPurchases)
        return try await RouterTests.start(app)
    }

    @Test func childrenRunConcurrently() async throws {
        // Each child waits until the other has started: run one after the other, the first would
        // wait in vain and fail. No stopwatch, so a busy machine cannot make this flaky.
        try await RouterTests.app().test { client in
            let reply = try await client.send("/pages/1?buffered&meet")
            #expect(reply.status == 200)
            #expect(reply.text.contains("fast met slow") && reply.text.contains("slow met fast"), "\(reply.text)")
        }
    }

    /// Every continuation of a request resumes on the event loop that read it: 1,000 pages from
    /// four clients at once, on two loops, each with two regions that check after each wait.
    @Test func everyContinuationOfARequestResumesOnItsOwnLoop() async throws {
        let server = try await Self.start()
        let before = LoopLedger.shared.snapshot
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let client = TestClient(port: server.port)
                    for _ in 0..<250 {
                        let reply = try await client.send("/pages/1?loopCheck&buffered")
                        #expect(reply.status == 200 && reply.text.contains("checked"))
                    }
                }
            }
            try await group.waitForAll()
        }
        let after = LoopLedger.shared.snapshot
        #expect(after.checks - before.checks == 1000 * 2 * 4, "every region of every page checked after each wait")
        #expect(after.moved == before.moved, "\(after.moved - before.moved) checks found the region off its request's loop")
        try await server.stop()
    }

    @Test func regionsAreMarkedWithNameAndSourceAndEachSourceAnswersAlone() async throws {
        let server = try await Self.start()
        let page = try await RouterTests.get(server.port, "/pages/3?buffered")
        #expect(page.text.contains(#"<div data-region="fast" data-region-src="/pages/3/fast">fast &lt;content&gt;</div>"#))
        #expect(page.text.contains(#"<div data-region="slow" data-region-src="/pages/3/slow">slow content</div>"#))
        for source in ["/pages/3/fast", "/pages/3/slow"] {
            let fragment = try await RouterTests.get(server.port, source)
            #expect(fragment.status == 200)
            #expect(!fragment.text.contains("<html"), "a fragment has no layout")
            #expect(fragment.text.contains("content"))
        }
        try await server.stop()
    }

    @Test func aFailingChildLeavesTheRestOfThePage() async throws {
        let server = try await Self.start()
        let reply = try await RouterTests.get(server.port, "/pages/1?failFast&buffered")
        #expect(reply.status == 200)
        #expect(
            reply.text.contains(
                #"data-region="fast" data-region-src="/pages/1/fast" data-region-failed="true"><p class="unavailable">fast &lt;content&gt; is unavailable right now.</p></div>"#
            ))
        #expect(reply.text.contains("slow content"))
        #expect(reply.text.contains("<footer>end of page</footer>"))
        try await server.stop()
    }

    @Test func aChildPastItsDeadlineIsCutShort() async throws {
        let server = try await Self.start()
        let started = ContinuousClock.now
        let reply = try await RouterTests.get(server.port, "/pages/1?slowMs=30000&deadlineMs=200&buffered")
        // Far below the child's 30 s, with room for a machine busy running every other suite.
        #expect(ContinuousClock.now - started < .seconds(15), "the page did not wait for the child")
        #expect(reply.status == 200)
        #expect(reply.text.contains(#"data-region="slow" data-region-src="/pages/1/slow" data-region-failed="true""#))
        #expect(reply.text.contains("fast &lt;content&gt;"))
        try await server.stop()
    }

    @Test func aRequiredRegionPastItsDeadlineFailsThePageWithA503() async throws {
        let server = try await Self.start()
        let reply = try await RouterTests.get(server.port, "/pages/1?requireSlow&slowMs=5000&deadlineMs=100")
        #expect(reply.status == 503, "slow, not broken: the next attempt may succeed")
        #expect(reply.header("Retry-After") == "5")
        #expect(reply.text.contains("data-status=\"503\""))
        #expect(reply.text.contains("took too long"))
        try await server.stop()
    }

    @Test func aMissingProviderLeavesItsRegionOut() async throws {
        let withProvider = try await Self.start()
        let signedIn = try await RouterTests.get(withProvider.port, "/pages/5?signedIn&buffered")
        #expect(
            signedIn.text.contains(#"<div data-region="purchases" data-region-src="/regions/5/purchases">You bought page 5 twice</div>"#),
            "the provider names its fragment URL")
        let anonymous = try await RouterTests.get(withProvider.port, "/pages/5?buffered")
        #expect(!anonymous.text.contains("data-region=\"purchases\""), "the provider declined")
        try await withProvider.stop()

        let without = try await Self.start(withPurchases: false)
        let reply = try await RouterTests.get(without.port, "/pages/5?signedIn&buffered")
        #expect(reply.status == 200)
        #expect(!reply.text.contains("purchases"), "nobody provides the key")
        #expect(reply.text.contains(#"<div class="right"></div>"#))
        try await without.stop()
    }

    @Test func aStreamedPageSendsItsTopBeforeTheSlowestRegion() async throws {
        let server = try await Self.start()
        let port = server.port
        // The slow region waits until the test has read the first piece: whatever arrived by
        // then was sent before the slow region ended.
        let gate = UUID().uuidString
        let (head, first, body) = try await onThread {
            let client = try RawHTTPClient(port: port)
            try client.send("GET /pages/2?slowMs=0&slowGate=\(gate) HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try client.readHead()
            var first: String?
            let body = try client.readChunked { chunk in
                guard first == nil else { return }
                first = String(decoding: chunk, as: UTF8.self)
                Task { await RegionGates.shared.open(gate) }
            }
            return (head, first ?? "", String(decoding: body, as: UTF8.self))
        }
        #expect(head.status == 200)
        #expect(head.header("transfer-encoding") == "chunked")
        #expect(first.contains("<title>Page 2</title>"), "the layout's head came first")
        #expect(!first.contains("slow content"), "before the slow region was rendered")
        #expect(body.contains("<title>Page 2</title>"))
        let fast = try #require(body.range(of: "fast &lt;content&gt;"))
        let slow = try #require(body.range(of: "slow content"))
        #expect(fast.lowerBound < slow.lowerBound, "regions come in document order")
        #expect(body.hasSuffix("</html>\n"))
        try await server.stop()
    }

    @Test func aStreamedPageAndABufferedOneAreTheSameBytes() async throws {
        // One assembly writes both; a region that fails and one that waits are in each.
        let server = try await Self.start()
        let streamed = try await RouterTests.get(server.port, "/pages/4?slowMs=300&failFast")
        let buffered = try await RouterTests.get(server.port, "/pages/4?slowMs=300&failFast&buffered")
        #expect(streamed.status == 200 && buffered.status == 200)
        #expect(streamed.header("transfer-encoding") == "chunked", "the slow region makes it stream")
        #expect(buffered.header("content-length") == "\(buffered.body.count)")
        #expect(streamed.text.contains("data-region-failed") && streamed.text.contains("slow content"))
        #expect(streamed.body == buffered.body)
        try await server.stop()
    }

    @Test func formsRenderedByARegionChildNeedNothingOfTheSession() async throws {
        let server = try await Self.start()
        // Buffered, and streamed: the region's form is rendered after the headers went out, and
        // needs nothing the head would have had to carry (no token, no cookie).
        for streamed in [false, true] {
            let gate = UUID().uuidString
            let target = "/form-region?gate=\(gate)" + (streamed ? "&streamed" : "")
            let reply: TestResponse
            if streamed {
                // The region waits until the head has come: a page whose every region had
                // answered would go out in one piece (with a Content-Length), and be no test.
                reply = try await onThread { [port = server.port] in
                    let client = try RawHTTPClient(port: port)
                    try client.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
                    var head = try client.readHead()
                    Task { await RegionGates.shared.open(gate) }
                    head.body = try client.readBody(after: head)
                    return head
                }
            } else {
                await RegionGates.shared.open(gate)
                reply = try await RouterTests.get(server.port, target)
            }
            #expect(reply.status == 200)
            #expect((reply.header("transfer-encoding") == "chunked") == streamed, "\(target)")
            #expect(reply.text.contains(#"<div data-region="form"><form method="post" action="/signup"><button>"#), "\(target)")
            #expect(reply.header("set-cookie") == nil, "\(target)")
            // Posted from the page, as a browser does: accepted without anything the page carried.
            let post = try await onThread { [port = server.port] in
                try RawHTTPClient.request(
                    port: port, "/pages", method: "POST",
                    headers: ["Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin"], body: Array("a=b".utf8))
            }
            #expect(post.status == 303, "\(target)")
        }
        try await server.stop()
    }

    @Test func theContainerPicksItsChildByStatus() async throws {
        let server = try await Self.start()
        let expected = ["Pay now", "Awaiting shipment", "On its way"]
        for (id, text) in expected.enumerated() {
            let reply = try await RouterTests.get(server.port, "/orders/\(id)")
            #expect(reply.text.contains(">\(text)</div>"), "order \(id)")
        }
        try await server.stop()
    }
}
