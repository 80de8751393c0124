import Foundation
import Synchronization
import TesseraHTTP
import TesseraTesting
import Testing

@Suite struct ShutdownTests {
    @Test func inFlightRequestFinishesDuringGracefulShutdown() async throws {
        let (started, signalStarted) = AsyncStream<Void>.makeStream()
        let handlerFinished = Atomic<Bool>(false)
        let server = try await TestServer.start { _ in
            signalStarted.yield()
            try? await Task.sleep(for: .milliseconds(500))
            handlerFinished.store(true, ordering: .sequentiallyConsistent)
            return .text("finished")
        }
        let port = server.port
        async let reply = onThread { try RawHTTPClient.request(port: port, "/slow") }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        try await server.stop()
        // The order, not a stopwatch: stop returns only once the in-flight handler has finished.
        let finishedBeforeStopReturned = handlerFinished.load(ordering: .sequentiallyConsistent)
        #expect(finishedBeforeStopReturned, "stop must wait for the request")
        let answer = try await reply
        #expect(answer.status == 200)
        #expect(answer.text == "finished")
        #expect(throws: (any Error).self) { try RawHTTPClient(port: port) }
    }

    @Test func requestStillWaitingAfterGraceGets503() async throws {
        let (started, signalStarted) = AsyncStream<Void>.makeStream()
        let server = try await TestServer.start(
            shutdownGrace: .milliseconds(200),
            responder: ClosureResponder { _ in
                signalStarted.yield()
                try await Task.sleep(for: .seconds(30))
                return .text("never")
            })
        let port = server.port
        async let reply = onThread { try RawHTTPClient.request(port: port, "/forever") }
        // Stopped once the handler runs: the request is in flight, not still on its way.
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        try await server.stop()
        #expect(try await reply.status == 503)
    }

    /// libmicrohttpd aborts the process when it is stopped with a connection still suspended.
    /// A waiting request's 503 is rendered by the app, which may take longer than any fixed
    /// allowance: the server stops only once every such answer has been handed over.
    @Test func aWaitingRequestWhoseErrorPageIsSlowStillGetsIts503() async throws {
        let answer = try await Self.stopWhileWaiting(errorPageDelay: .milliseconds(1500))
        #expect(answer.status == 503)
        #expect(answer.text.contains("slowly"), "the app's own error page, however long it took")
    }

    /// Clients on kept-alive connections go on sending while the server stops. A request that
    /// arrives after the last wait can no longer be suspended for its handler: it gets a 503 at
    /// once, and the stop never meets a suspended connection.
    @Test func keptAliveClientsSendingThroughTheStopNeverCrashIt() async throws {
        for _ in 0..<5 {
            let served = Atomic<Int>(0)
            let answeredClients = ClientCount()
            let server = try await TestServer.start(
                shutdownGrace: .seconds(5),
                responder: ClosureResponder { _ in
                    try await Task.sleep(for: .microseconds(200))  // always waits: the connection is suspended
                    served.add(1, ordering: .relaxed)
                    return .text("ok")
                })
            let port = server.port
            let clients = (0..<8).map { _ in
                Task {
                    try await onThread { () -> [Int] in
                        let client = try RawHTTPClient(port: port, timeout: 20)
                        var statuses: [Int] = []
                        while true {
                            do {
                                try client.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
                                let reply = try client.readReply()
                                if statuses.isEmpty { answeredClients.value.add(1, ordering: .relaxed) }
                                statuses.append(reply.status)
                                if reply.header("connection")?.lowercased() == "close" { return statuses }
                            } catch {
                                return statuses  // closed between two requests: what a client retries
                            }
                        }
                    }
                }
            }
            // Every client connected and answered once before the stop: they are sending through it.
            while answeredClients.value.load(ordering: .relaxed) < clients.count || served.load(ordering: .relaxed) < 50 {
                try await Task.sleep(for: .milliseconds(1))
            }
            try await server.stop()
            for client in clients {
                let statuses = try await client.value
                #expect(!statuses.isEmpty)
                #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses.filter { $0 != 200 })")
            }
        }
    }
}

extension ShutdownTests {
    /// Stops a server while a request waits past the grace period for a handler that never
    /// answers, with an error page that takes `errorPageDelay`; the client's answer.
    static func stopWhileWaiting(errorPageDelay: Duration) async throws -> TestResponse {
        let (started, signalStarted) = AsyncStream<Void>.makeStream()
        let server = try await TestServer.start(
            shutdownGrace: .milliseconds(100),
            responder: ClosureResponder { _ in
                signalStarted.yield()
                try await Task.sleep(for: .seconds(30))
                return .text("never")
            },
            errorResponder: SlowErrorResponder(delay: errorPageDelay)
        )
        let port = server.port
        async let reply = onThread { try RawHTTPClient.request(port: port, "/forever", timeout: 60) }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        try await server.stop()
        let answer = try await reply
        return answer
    }

    /// An error page that never comes must not hold the stop: the plain 503 goes instead.
    @Test func aWaitingRequestWhoseErrorPageNeverComesGetsThePlain503() async throws {
        let answer = try await Self.stopWhileWaiting(errorPageDelay: .seconds(600))
        #expect(answer.status == 503)
        #expect(answer.text.contains("shutting down"), "the plain page: \(answer.text)")
    }
}

/// How many clients have had an answer, shared by their threads and the test.
private final class ClientCount: Sendable {
    let value = Atomic<Int>(0)
}

/// An error page that takes its time, as an app's may under load.
private struct SlowErrorResponder: HTTPErrorResponder {
    let delay: Duration

    func answer(for error: any Error, to request: Request) -> NowOrLater<Void, Response> {
        .later { [delay] _ in
            try? await Task.sleep(for: delay)
            var response = await PlainErrorResponder().response(for: error, to: request)
            response.body = .bytes(Array("answered slowly".utf8))
            return response
        }
    }
}
