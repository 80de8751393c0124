import Foundation
import Synchronization
import TesseraHTTP
import TesseraTesting
import Testing

/// Slow-header clients at their per-address cap, from four addresses, are cut off at the head
/// deadline, while a client from a fifth address goes on being answered; a connection over the
/// cap gets a 503 rather than silence.
@Suite struct FloodTests {
    static let limits = HTTPServerLimits(headTimeout: .seconds(2), maxConnections: 64, maxConnectionsPerIP: 8)

    @Test func slowHeadsAreCutAtTheDeadlineAndOthersAreServed() async throws {
        // The head deadline is long enough that a busy machine still sets up every slow client
        // and asks its questions before the first one is cut: the test counts answers, never
        // how many fit in some time.
        var limits = Self.limits
        limits.headTimeout = .seconds(5)
        let server = try await TestServer.start(limits: limits) { _ in .text("ok") }
        let port = server.port
        let started = ContinuousClock.now

        // 4 addresses × 8 connections, each sending one more header line every 300 ms:
        // the idle timeout (15 s) never fires, only the head deadline can end them.
        let slowClients = try await onThread {
            try (2...5).flatMap { host in
                try (0..<8).map { _ in
                    let client = try RawHTTPClient(port: port, from: "127.0.0.\(host)", timeout: 10)
                    try client.send("GET /ok HTTP/1.1\r\nHost: x\r\n")
                    return client
                }
            }
        }
        let setUp = ContinuousClock.now - started
        let trickling = Task.detached {
            var closedAfter: [Int: Duration] = [:]
            while closedAfter.count < slowClients.count, ContinuousClock.now - started < .seconds(30) {
                for (index, client) in slowClients.enumerated() where closedAfter[index] == nil {
                    if (try? client.send("X-Slow: 1\r\n")) == nil || client.isClosedByServerWithoutWaiting() {
                        closedAfter[index] = ContinuousClock.now - started
                    }
                }
                try? await Task.sleep(for: .milliseconds(300))
            }
            return closedAfter
        }

        // Meanwhile a client from 127.0.0.6 asks five times, each time on a new connection.
        var answers: [Int] = []
        var firstAnswered: Duration?
        for _ in 0..<5 {
            let status = try await onThread { () -> Int in
                let client = try RawHTTPClient(port: port, from: "127.0.0.6", timeout: 5)
                try client.send("GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                return try client.readReply().status
            }
            answers.append(status)
            if firstAnswered == nil { firstAnswered = ContinuousClock.now - started }
        }
        let closedAfter = await trickling.value

        #expect(answers == [200, 200, 200, 200, 200])
        #expect(closedAfter.count == slowClients.count, "every slow client is cut off")
        // The first answer, not the fifth: on a busy machine five may outlast the deadline.
        #expect(closedAfter.values.contains { $0 > firstAnswered! }, "an answer came while slow heads still hung on")
        // Each head began between `started` and `setUp`, and is cut 5 s later, when the server's
        // check (every 250 ms) and the client's next line (every 300 ms) notice.
        #expect(
            closedAfter.values.allSatisfy { $0 >= .seconds(4) && $0 < setUp + .seconds(9) },
            "at the 5 s deadline: \(closedAfter.values.sorted()), set up in \(setUp)")
        #expect(try await server.assertServing().status == 200)
        try await server.stop()
    }

    @Test func aConnectionOverTheCapIsAnswered503() async throws {
        // The eight held connections never send a head: with the 2 s head deadline, a busy
        // machine could cut some of them off before the server had counted all eight, and the
        // ninth would then be under the cap. This test is about the cap alone.
        var limits = Self.limits
        limits.headTimeout = .seconds(600)
        let server = try await TestServer.start(limits: limits) { _ in .text("ok") }
        let port = server.port
        let state = server.state
        let (refusal, others) = try await onThread {
            let holding = try (0..<8).map { _ in try RawHTTPClient(port: port, from: "127.0.0.7") }
            // The server has taken all eight in (it counts them), so the ninth is over the cap.
            let givingUp = ContinuousClock.now + .seconds(60)
            while state.openConnections < 8, ContinuousClock.now < givingUp { usleep(2_000) }
            let over = try RawHTTPClient(port: port, from: "127.0.0.7")
            try over.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            let refusal = try over.readReply()
            #expect(try over.readToEnd().isEmpty, "one answer, then the connection closes")
            let others = try RawHTTPClient.request(port: port, "/ok").status
            _ = holding
            return (refusal, others)
        }
        #expect(refusal.status == 503)
        #expect(refusal.header("retry-after") == "5")
        #expect(refusal.header("connection") == "close")
        #expect(others == 200, "other addresses are not held up")
        try await server.stop()
    }
}
