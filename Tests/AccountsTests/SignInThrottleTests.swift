@testable import Accounts
import Tessera
import Testing

/// The throttle's arithmetic, with a clock the test moves by hand.
@Suite struct SignInThrottleTests {
    let start = ContinuousClock.now
    let home = IPAddress("192.0.2.1")
    let elsewhere = IPAddress("192.0.2.2")

    @Test func anAccountWaitsLongerAfterEachAttemptPastTheFreeOnes() throws {
        let throttle = SignInThrottle(policy: .init(freeAttemptsPerAccount: 3, freeAttemptsPerAddress: 100, firstDelay: .seconds(2)))
        for _ in 1...3 { try throttle.admit(account: "ada", from: home, now: start) }
        try throttle.admit(account: "ada", from: home, now: start)  // the 4th: allowed, then 2 s to wait
        #expect(throws: SignInThrottled(retryAfter: .seconds(2))) { try throttle.admit(account: "ada", from: home, now: start) }
        #expect(throws: SignInThrottled(retryAfter: .seconds(1)), "from another address too") {
            try throttle.admit(account: "ada", from: elsewhere, now: start + .seconds(1))
        }
        try throttle.admit(account: "ada", from: home, now: start + .seconds(2))  // the 5th: 4 s to wait
        #expect(throws: SignInThrottled.self) { try throttle.admit(account: "ada", from: home, now: start + .seconds(5)) }
        try throttle.admit(account: "ada", from: home, now: start + .seconds(6))  // the 6th: 8 s to wait
        #expect(throws: SignInThrottled(retryAfter: .seconds(8))) { try throttle.admit(account: "ada", from: home, now: start + .seconds(6)) }
        try throttle.admit(account: "grace", from: home, now: start + .seconds(6))  // other accounts are not held up
    }

    @Test func theRightPasswordClearsTheAccountAndAnHourForgetsIt() throws {
        let throttle = SignInThrottle(policy: .init(freeAttemptsPerAccount: 2, freeAttemptsPerAddress: 100))
        for _ in 1...2 { try throttle.admit(account: "ada", from: home, now: start) }
        throttle.succeeded(account: "ada", from: home)
        for _ in 1...2 { try throttle.admit(account: "ada", from: home, now: start) }
        try throttle.admit(account: "ada", from: home, now: start)
        #expect(throws: SignInThrottled.self) { try throttle.admit(account: "ada", from: home, now: start) }
        // An hour after the last attempt the count starts again.
        for _ in 1...3 { try throttle.admit(account: "ada", from: home, now: start + .seconds(3601)) }
    }

    @Test func anAddressGuessingManyAccountsIsHeldUpToo() throws {
        let throttle = SignInThrottle(policy: .init(freeAttemptsPerAccount: 5, freeAttemptsPerAddress: 10))
        for index in 1...11 { try throttle.admit(account: "user\(index)", from: home, now: start) }
        let refusal = #expect(throws: SignInThrottled.self) { try throttle.admit(account: "someone-new", from: home, now: start) }
        #expect(refusal?.retryAfterSeconds == 2)
        #expect(refusal?.status == .tooManyRequests)
        #expect(refusal?.headers[.retryAfter] == "2")
        #expect(refusal?.publicMessage.contains("wait 2 seconds") == true)
        try throttle.admit(account: "someone-new", from: elsewhere, now: start)
    }

    /// A hash that took long (a busy pool) must not use the wait up: it starts at the refusal.
    @Test func theWaitStartsWhenTheWrongPasswordIsKnown() throws {
        let throttle = SignInThrottle(policy: .init(freeAttemptsPerAccount: 1, freeAttemptsPerAddress: 100, firstDelay: .seconds(2)))
        try throttle.admit(account: "ada", from: home, now: start)
        try throttle.admit(account: "ada", from: home, now: start)  // the 2nd: 2 s to wait …
        throttle.failed(account: "ada", from: home, now: start + .seconds(3))  // … from its refusal, 3 s later
        #expect(throws: SignInThrottled(retryAfter: .seconds(1))) { try throttle.admit(account: "ada", from: home, now: start + .seconds(4)) }
        try throttle.admit(account: "ada", from: home, now: start + .seconds(5))
    }

    @Test func aWithdrawnAttemptDoesNotCount() throws {
        let throttle = SignInThrottle(policy: .init(freeAttemptsPerAccount: 1, freeAttemptsPerAddress: 100))
        try throttle.admit(account: "ada", from: home, now: start)
        throttle.withdraw(account: "ada", from: home)
        try throttle.admit(account: "ada", from: home, now: start)
        try throttle.admit(account: "ada", from: home, now: start)
        #expect(throws: SignInThrottled.self) { try throttle.admit(account: "ada", from: home, now: start) }
    }

    @Test func keysAreBounded() throws {
        let throttle = SignInThrottle(policy: .init(freeAttemptsPerAccount: 1, freeAttemptsPerAddress: 1, maxKeys: 10))
        for index in 1...100 { try throttle.admit(account: "user\(index)", from: nil, now: start) }
        #expect(throttle.trackedKeys <= 10)
        // Keys still waiting are not all dropped at once: the newest half stays.
        let waiting = SignInThrottle(policy: .init(freeAttemptsPerAccount: 0, freeAttemptsPerAddress: 100, maxKeys: 10))
        for index in 1...10 { try waiting.admit(account: "user\(index)", from: nil, now: start + .milliseconds(index)) }
        try waiting.admit(account: "newcomer", from: nil, now: start + .milliseconds(20))
        #expect(waiting.trackedKeys == 6)
        #expect(throws: SignInThrottled.self, "a recent wait survives") { try waiting.admit(account: "user10", from: nil, now: start + .milliseconds(30)) }
    }
}
