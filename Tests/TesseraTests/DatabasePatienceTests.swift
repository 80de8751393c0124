import Testing

@testable import Tessera

/// The request's patience is one budget of waiting: calls one after another share it, calls at
/// the same time count their overlap once, and time between calls is not counted. The clock is
/// given, not read, so the arithmetic is checked exactly.
@Suite struct DatabasePatienceTests {
    let zero = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { zero + .milliseconds(milliseconds) }

    @Test func outsideARequestThereIsNoDeadline() async throws {
        let deadline = try await DatabasePatience.call { $0 }
        #expect(deadline == nil)
    }

    @Test func callsOneAfterAnotherShareTheBudget() {
        let patience = DatabasePatience(limit: .milliseconds(300))
        #expect(patience.start(at: at(0)) == at(300))
        patience.end(at: at(200))
        #expect(patience.start(at: at(200)) == at(300), "200 ms of 300 were spent by the first call")
        patience.end(at: at(250))
        #expect(patience.remaining(at: at(250)) == .milliseconds(50))
    }

    @Test func timeBetweenCallsIsNotCounted() {
        let patience = DatabasePatience(limit: .milliseconds(300))
        #expect(patience.start(at: at(0)) == at(300))
        patience.end(at: at(100))
        // 400 ms elsewhere (hashing a password, say): the next call still has 200 ms.
        #expect(patience.start(at: at(500)) == at(700))
        patience.end(at: at(510))
        #expect(patience.remaining(at: at(900)) == .milliseconds(190))
    }

    @Test func callsAtTheSameTimeCountTheirOverlapOnce() {
        let patience = DatabasePatience(limit: .seconds(1))
        #expect(patience.start(at: at(0)) == at(1000))
        #expect(patience.start(at: at(100)) == at(1000), "calls waiting together share one deadline")
        patience.end(at: at(200))
        patience.end(at: at(300))
        #expect(patience.remaining(at: at(300)) == .milliseconds(700), "two overlapping waits of 0–300 ms spend 300 ms, not 500")
    }

    @Test func aSpentBudgetStartsNoCall() async throws {
        let patience = DatabasePatience(limit: .milliseconds(10))
        _ = patience.start(at: .now - .seconds(1))
        patience.end()
        await #expect(throws: DatabaseUnavailable.self) {
            try await DatabasePatience.$current.withValue(patience) {
                try await DatabasePatience.call { _ in Issue.record("a call ran past the budget") }
            }
        }
    }
}
