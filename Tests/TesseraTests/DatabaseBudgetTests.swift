import Testing

@testable import Tessera

/// The request's patience is one budget of waiting: calls one after another share it, calls at
/// the same time count their overlap once, and time between calls is not counted. The clock is
/// given, not read, so the arithmetic is checked exactly.
@Suite struct DatabaseBudgetTests {
    let zero = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { zero + .milliseconds(milliseconds) }

    @Test func outsideARequestThereIsNoDeadline() async throws {
        let deadline = try await DatabaseBudget.outsideRequest.call { $0 }
        #expect(deadline == nil)
        #expect(DatabaseBudget.outsideRequest.remaining == nil)
    }

    @Test func callsOneAfterAnotherShareTheBudget() {
        let account = DatabaseBudget.Account(), limit = Duration.milliseconds(300)
        #expect(account.start(limit: limit, at: at(0)) == at(300))
        account.end(at: at(200))
        #expect(account.start(limit: limit, at: at(200)) == at(300), "200 ms of 300 were spent by the first call")
        account.end(at: at(250))
        #expect(account.remaining(limit: limit, at: at(250)) == .milliseconds(50))
    }

    @Test func timeBetweenCallsIsNotCounted() {
        let account = DatabaseBudget.Account(), limit = Duration.milliseconds(300)
        #expect(account.start(limit: limit, at: at(0)) == at(300))
        account.end(at: at(100))
        // 400 ms elsewhere (hashing a password, say): the next call still has 200 ms.
        #expect(account.start(limit: limit, at: at(500)) == at(700))
        account.end(at: at(510))
        #expect(account.remaining(limit: limit, at: at(900)) == .milliseconds(190))
    }

    @Test func callsAtTheSameTimeCountTheirOverlapOnce() {
        let account = DatabaseBudget.Account(), limit = Duration.seconds(1)
        #expect(account.start(limit: limit, at: at(0)) == at(1000))
        #expect(account.start(limit: limit, at: at(100)) == at(1000), "calls waiting together share one deadline")
        account.end(at: at(200))
        account.end(at: at(300))
        #expect(account.remaining(limit: limit, at: at(300)) == .milliseconds(700), "two overlapping waits of 0–300 ms spend 300 ms, not 500")
    }

    @Test func aSpentBudgetStartsNoCall() async throws {
        let budget = DatabaseBudget.outsideRequest(patience: .milliseconds(10))
        let account = try #require(budget.account)
        _ = account.start(limit: .milliseconds(10), at: .now - .seconds(1))
        account.end(at: .now)
        #expect(budget.remaining == .zero)
        await #expect(throws: DatabaseUnavailable.self) {
            try await budget.call { _ in Issue.record("a call ran past the budget") }
        }
    }

    /// Every copy of a request's context shares one account, however a step rewrote the request
    /// after it was made: what one region's call spent, the next call sees.
    /// The patience is an hour: a sleep of 20 ms may take seconds on a loaded machine, and a
    /// budget that ran out then would refuse the second call for a reason this test is not about.
    @Test func copiesOfABudgetShareItsAccount() async throws {
        let patience = Duration.seconds(3600)
        var budget = DatabaseBudget(patience: patience, metered: true, account: DatabaseBudget.Account())
        let copy = budget
        try await copy.call { _ in try await Task.sleep(for: .milliseconds(20)) }
        #expect(budget.timeSpent >= .milliseconds(20), "the copy's call is the request's time")
        #expect(try #require(budget.remaining) <= patience - .milliseconds(20))
        budget.metered = false
        try await budget.call { _ in }
        #expect(budget.timeSpent >= .milliseconds(20))
    }

    /// A budget is carried, not looked up: a task the handler detaches keeps its request's,
    /// spent patience included.
    @Test func aDetachedTaskKeepsTheBudgetItWasGiven() async throws {
        let budget = DatabaseBudget.outsideRequest(patience: .milliseconds(10))
        let account = try #require(budget.account)
        _ = account.start(limit: .milliseconds(10), at: .now - .seconds(1))
        account.end(at: .now)
        let refused = await Task.detached {
            do {
                try await budget.call { _ in }
                return false
            } catch {
                return error is DatabaseUnavailable
            }
        }.value
        #expect(refused, "the detached call had the request's spent patience")
    }
}
