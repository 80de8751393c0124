import Foundation
import Logging
import Tessera
import TesseraHTTP
import TesseraTesting
import Testing

@testable import TesseraPostgres

/// A database that cannot be reached is a 503 that says when to retry, at once, not a 500 or a
/// wait; and the pool connects again on the next call.
@Suite struct DatabaseUnavailableTests {
    @Test func anUnreachableDatabaseIsA503AtOnce() async throws {
        // A port held, never listening: refused for the whole test.
        let refusing = RefusingLoopbackPort()
        let url = try PostgresURL("postgres://shop:secret@127.0.0.1:\(refusing.port)/shop")
        let connections = PostgresConnections(url: url, size: 2, logger: Logger(label: "test"))
        for _ in 0..<3 {
            await #expect {
                try await connections.read(within: .outsideRequest) { try $0.execute("SELECT 1") }
            } throws: { error in
                guard let error = error as? DatabaseUnavailable else { return false }
                // Refused, not timed out: the pool does not wait out a timeout for a closed port.
                return error.status == .serviceUnavailable && error.headers[.retryAfter] == "5" && error.reason.contains("refused")
                    && !error.publicMessage.contains("127.0.0.1") && !error.reason.contains("secret")
            }
        }
        // The same on the event loop's connections, which requests read with.
        await #expect {
            try await connections.query("SELECT 1", within: .outsideRequest)
        } throws: { error in
            (error as? DatabaseUnavailable)?.reason.contains("refused") == true
        }
        await connections.shutdown()
        withExtendedLifetime(refusing) {}
    }

    /// A server that takes the connection and never answers: a request waits for its patience,
    /// not for the pool's connect timeout, even while its connection is still being made.
    @Test func aConnectionThatNeverCompletesHoldsARequestOnlyForItsPatience() async throws {
        let silent = try ListeningLoopbackPort()
        let url = try PostgresURL("postgres://shop:secret@127.0.0.1:\(silent.port)/shop")
        let connections = PostgresConnections(url: url, size: 2, connectTimeout: .seconds(60), logger: Logger(label: "test"))
        let started = ContinuousClock.now
        await #expect(throws: DatabaseUnavailable.self) {
            try await connections.query("SELECT 1", within: .outsideRequest(patience: .milliseconds(300)))
        }
        // Far below the 60 s connect timeout, with room for a machine busy with every other suite.
        #expect(ContinuousClock.now - started < .seconds(20))
        await connections.shutdown()
        withExtendedLifetime(silent) {}
    }
}
