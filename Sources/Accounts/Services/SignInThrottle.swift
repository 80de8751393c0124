import Foundation
public import Tessera

/// Slows password guessing down, per account and per client address.
///
/// Each attempt is counted when it starts, so parallel guesses cannot slip past the count, and a
/// right password takes its attempt back. Past a few free attempts each further one makes the
/// key wait longer (2 s, 4 s, 8 s … up to a cap), and an attempt during the wait is refused
/// with ``SignInThrottled`` (429 and `Retry-After`) before any hashing, after a short pause
/// (``Policy/refusalPause``) that keeps a guesser from turning refusals into a flood. Counts are forgotten an
/// hour after the last attempt. Accounts get fewer free attempts than addresses, because many
/// honest people can share one address.
///
/// The counts live in a ``RateLimitStore``: in memory for one instance, in the shared database
/// behind a balancer, so that three instances allow the guesses one allows.
public struct SignInThrottle: Sendable {
    /// How many attempts are free, and how the wait grows after them.
    public struct Policy: Sendable {
        /// Attempts on one account before the waits start: a shopper who mistypes is never slowed.
        public var freeAttemptsPerAccount: Int
        /// Attempts from one address before the waits start: higher, since an office or a school shares one.
        public var freeAttemptsPerAddress: Int
        /// The first wait after the free attempts; each one after it doubles.
        public var firstDelay: Duration
        /// The doubling stops here, so an owner locked out by someone else can still get in.
        public var longestDelay: Duration
        /// Counts are dropped this long after a key's last attempt.
        public var memory: Duration
        /// How long a refusal waits before it is sent (never longer than the wait itself). A
        /// client guessing one attempt after another is slowed to about one a second, and costs
        /// the server nothing meanwhile: the connection waits, no thread does.
        public var refusalPause: Duration

        /// 5 free attempts per account and 20 per address, then 2 s doubling up to 15 minutes.
        public init(
            freeAttemptsPerAccount: Int = 5, freeAttemptsPerAddress: Int = 20,
            firstDelay: Duration = .seconds(2), longestDelay: Duration = .seconds(15 * 60),
            memory: Duration = .seconds(3600), refusalPause: Duration = .seconds(1)
        ) {
            self.freeAttemptsPerAccount = freeAttemptsPerAccount
            self.freeAttemptsPerAddress = freeAttemptsPerAddress
            self.firstDelay = firstDelay
            self.longestDelay = longestDelay
            self.memory = memory
            self.refusalPause = refusalPause
        }

        /// No wait within the free attempts; then `firstDelay`, doubling with each attempt.
        func delay(after attempts: Int, free: Int) -> TimeInterval {
            let over = attempts - free
            guard over > 0 else { return 0 }
            let doublings = min(over - 1, 30)
            return min(firstDelay * (1 << doublings), longestDelay).timeInterval
        }
    }

    /// One attempt's two counts: its account's and its address's.
    private struct Keys {
        let account: String
        let address: String?
        var all: [String] { [account] + (address.map { [$0] } ?? []) }

        init(account: String, address: IPAddress?) {
            self.account = "sign-in.account:" + account
            self.address = address.map { "sign-in.address:\($0)" }
        }
    }

    /// The policy this throttle applies.
    public let policy: Policy
    /// Where the counts live.
    public let store: any RateLimitStore

    /// A throttle with its counts in `store`: this process's memory by default.
    public init(policy: Policy = Policy(), store: any RateLimitStore = MemoryRateLimitStore()) {
        self.policy = policy
        self.store = store
    }

    /// Counts an attempt for `account` from `address`, or throws ``SignInThrottled`` when either
    /// must still wait; a refused attempt is not counted.
    func admit(account: String, from address: IPAddress?, now: Date = Date(), within budget: DatabaseBudget) async throws {
        let keys = Keys(account: account, address: address)
        let policy = self.policy
        try await store.update(keys.all, now: now, within: budget) { counts in
            let wait = keys.all.compactMap { counts[$0]?.blockedUntil }.max() ?? now
            // Whole milliseconds: the clock's floating-point seconds must not turn 2 s into 3.
            if wait > now { throw SignInThrottled(retryAfter: .milliseconds(Int64((wait.timeIntervalSince(now) * 1000).rounded()))) }
            for key in keys.all {
                var count = counts[key] ?? RateLimitCount(hits: 0, lastHit: now, expires: now)
                count.hits += 1
                count.lastHit = now
                count.blockedUntil = now + policy.delay(after: count.hits, free: Self.freeAttempts(for: key, in: keys, policy))
                count.expires = max(count.blockedUntil, now + policy.memory.timeInterval)
                counts[key] = count
            }
        }
    }

    /// ``admit(account:from:now:)``, with a refusal sent only after ``Policy/refusalPause``.
    func admitOrPause(account: String, from address: IPAddress?, within budget: DatabaseBudget) async throws {
        do {
            try await admit(account: account, from: address, within: budget)
        } catch let refusal as SignInThrottled {
            try? await Task.sleep(for: min(policy.refusalPause, .seconds(refusal.retryAfterSeconds)))
            throw refusal
        }
    }

    /// The password was right: the account's count is cleared, and the address gets its attempt back.
    func succeeded(account: String, from address: IPAddress?, now: Date = Date(), within budget: DatabaseBudget) async throws {
        let keys = Keys(account: account, address: address)
        let policy = self.policy
        try await store.update(keys.all, now: now, within: budget) { counts in
            counts[keys.account] = nil
            if let address = keys.address { Self.takeBack(address, in: &counts, free: policy.freeAttemptsPerAddress, policy) }
        }
    }

    /// The password was wrong: the wait the attempt earned starts now, when the guesser learns
    /// the answer, not when the attempt was admitted. Otherwise a slow hash (a busy pool) would
    /// use the wait up before the guesser even saw the refusal.
    func failed(account: String, from address: IPAddress?, now: Date = Date(), within budget: DatabaseBudget) async throws {
        let keys = Keys(account: account, address: address)
        let policy = self.policy
        try await store.update(keys.all, now: now, within: budget) { counts in
            for key in keys.all {
                guard var count = counts[key] else { continue }
                count.blockedUntil = max(
                    count.blockedUntil, now + policy.delay(after: count.hits, free: Self.freeAttempts(for: key, in: keys, policy)))
                count.expires = max(count.expires, count.blockedUntil)
                counts[key] = count
            }
        }
    }

    /// The attempt was never judged (the hashing pool was full): it is taken back.
    func withdraw(account: String, from address: IPAddress?, now: Date = Date(), within budget: DatabaseBudget) async throws {
        let keys = Keys(account: account, address: address)
        let policy = self.policy
        try await store.update(keys.all, now: now, within: budget) { counts in
            for key in keys.all { Self.takeBack(key, in: &counts, free: Self.freeAttempts(for: key, in: keys, policy), policy) }
        }
    }

    /// One attempt fewer for `key`, and the wait it would have earned without it.
    private static func takeBack(_ key: String, in counts: inout [String: RateLimitCount], free: Int, _ policy: Policy) {
        guard var count = counts[key] else { return }
        count.hits -= 1
        count.blockedUntil = count.lastHit + policy.delay(after: count.hits, free: free)
        counts[key] = count.hits > 0 ? count : nil
    }

    private static func freeAttempts(for key: String, in keys: Keys, _ policy: Policy) -> Int {
        key == keys.account ? policy.freeAttemptsPerAccount : policy.freeAttemptsPerAddress
    }
}
