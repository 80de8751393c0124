import Foundation
import Tessera
import Testing

@testable import Accounts

/// The throttle's arithmetic, with a clock the test moves by hand.
@Suite struct SignInThrottleTests {
    let start = Date()
    let home = IPAddress("192.0.2.1")
    let elsewhere = IPAddress("192.0.2.2")

    @Test func anAccountWaitsLongerAfterEachAttemptPastTheFreeOnes() async throws {
        let throttle = SignInThrottle(policy: .init(freeAttemptsPerAccount: 3, freeAttemptsPerAddress: 100, firstDelay: .seconds(2)))
        for _ in 1...3 { try await throttle.admit(account: "ada", from: home, now: start, within: .outsideRequest) }
        try await throttle.admit(account: "ada", from: home, now: start, within: .outsideRequest)  // the 4th: allowed, then 2 s to wait
        await #expect(throws: SignInThrottled(retryAfter: .seconds(2))) {
            try await throttle.admit(account: "ada", from: home, now: start, within: .outsideRequest)
        }
        await #expect(throws: SignInThrottled(retryAfter: .seconds(1)), "from another address too") {
            try await throttle.admit(account: "ada", from: elsewhere, now: start + 1, within: .outsideRequest)
        }
        try await throttle.admit(account: "ada", from: home, now: start + 2, within: .outsideRequest)  // the 5th: 4 s to wait
        await #expect(throws: SignInThrottled.self) { try await throttle.admit(account: "ada", from: home, now: start + 5, within: .outsideRequest) }
        try await throttle.admit(account: "ada", from: home, now: start + 6, within: .outsideRequest)  // the 6th: 8 s to wait
        await #expect(throws: SignInThrottled(retryAfter: .seconds(8))) {
            try await throttle.admit(account: "ada", from: home, now: start + 6, within: .outsideRequest)
        }
        try await throttle.admit(account: "grace", from: home, now: start + 6, within: .outsideRequest)  // other accounts are not held up
    }

    @Test func theRightPasswordClearsTheAccountAndAnHourForgetsIt() async throws {
        let throttle = SignInThrottle(policy: .init(freeAttemptsPerAccount: 2, freeAttemptsPerAddress: 100))
        for _ in 1...2 { try await throttle.admit(account: "ada", from: home, now: start, within: .outsideRequest) }
        try await throttle.succeeded(account: "ada", from: home, within: .outsideRequest)
        for _ in 1...2 { try await throttle.admit(account: "ada", from: home, now: start, within: .outsideRequest) }
        try await throttle.admit(account: "ada", from: home, now: start, within: .outsideRequest)
        await #expect(throws: SignInThrottled.self) { try await throttle.admit(account: "ada", from: home, now: start, within: .outsideRequest) }
        // An hour after the last attempt the count starts again.
        for _ in 1...3 { try await throttle.admit(account: "ada", from: home, now: start + 3601, within: .outsideRequest) }
    }

    @Test func anAddressGuessingManyAccountsIsHeldUpToo() async throws {
        let throttle = SignInThrottle(policy: .init(freeAttemptsPerAccount: 5, freeAttemptsPerAddress: 10))
        for index in 1...11 { try await throttle.admit(account: "user\(index)", from: home, now: start, within: .outsideRequest) }
        let refusal = await #expect(throws: SignInThrottled.self) {
            try await throttle.admit(account: "someone-new", from: home, now: start, within: .outsideRequest)
        }
        #expect(refusal?.retryAfterSeconds == 2)
        #expect(refusal?.status == .tooManyRequests)
        #expect(refusal?.headers[.retryAfter] == "2")
        #expect(refusal?.publicMessage.contains("wait 2 seconds") == true)
        try await throttle.admit(account: "someone-new", from: elsewhere, now: start, within: .outsideRequest)
    }

    /// A hash that took long (a busy pool) must not use the wait up: it starts at the refusal.
    @Test func theWaitStartsWhenTheWrongPasswordIsKnown() async throws {
        let throttle = SignInThrottle(policy: .init(freeAttemptsPerAccount: 1, freeAttemptsPerAddress: 100, firstDelay: .seconds(2)))
        try await throttle.admit(account: "ada", from: home, now: start, within: .outsideRequest)
        try await throttle.admit(account: "ada", from: home, now: start, within: .outsideRequest)  // the 2nd: 2 s to wait …
        try await throttle.failed(account: "ada", from: home, now: start + 3, within: .outsideRequest)  // … from its refusal, 3 s later
        await #expect(throws: SignInThrottled(retryAfter: .seconds(1))) {
            try await throttle.admit(account: "ada", from: home, now: start + 4, within: .outsideRequest)
        }
        try await throttle.admit(account: "ada", from: home, now: start + 5, within: .outsideRequest)
    }

    @Test func aWithdrawnAttemptDoesNotCount() async throws {
        let throttle = SignInThrottle(policy: .init(freeAttemptsPerAccount: 1, freeAttemptsPerAddress: 100))
        try await throttle.admit(account: "ada", from: home, now: start, within: .outsideRequest)
        try await throttle.withdraw(account: "ada", from: home, within: .outsideRequest)
        try await throttle.admit(account: "ada", from: home, now: start, within: .outsideRequest)
        try await throttle.admit(account: "ada", from: home, now: start, within: .outsideRequest)
        await #expect(throws: SignInThrottled.self) { try await throttle.admit(account: "ada", from: home, now: start, within: .outsideRequest) }
    }

    @Test func keysAreBoundedByTheStore() async throws {
        let store = MemoryRateLimitStore(maxKeys: 10)
        let throttle = SignInThrottle(policy: .init(freeAttemptsPerAccount: 1, freeAttemptsPerAddress: 1), store: store)
        for index in 1...100 { try await throttle.admit(account: "user\(index)", from: nil, now: start, within: .outsideRequest) }
        #expect(store.keptKeys <= 10)
        // Keys still waiting are not all dropped at once: the newest half stays.
        let waitingStore = MemoryRateLimitStore(maxKeys: 10)
        let waiting = SignInThrottle(policy: .init(freeAttemptsPerAccount: 0, freeAttemptsPerAddress: 100), store: waitingStore)
        for index in 1...10 {
            try await waiting.admit(account: "user\(index)", from: nil, now: start + Double(index) / 1000, within: .outsideRequest)
        }
        try await waiting.admit(account: "newcomer", from: nil, now: start + 0.020, within: .outsideRequest)
        #expect(waitingStore.keptKeys == 5)
        await #expect(throws: SignInThrottled.self, "a recent wait survives") {
            try await waiting.admit(account: "user10", from: nil, now: start + 0.030, within: .outsideRequest)
        }
    }
}
