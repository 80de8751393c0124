import Foundation
import Synchronization
import Testing
import TesseraHTTP
import TesseraTesting

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
        let server = try await TestServer.start(shutdownGrace: .milliseconds(200), responder: ClosureResponder { _ in
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
}
