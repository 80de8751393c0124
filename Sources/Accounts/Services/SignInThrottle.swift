import Synchronization
import Tessera

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
/// The counts live in this process: behind a balancer each instance counts its own, which
/// multiplies the budget by the number of instances but keeps it bounded.
public final class SignInThrottle: Sendable {
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
        /// The most keys kept; past it, keys no longer waiting are dropped first.
        public var maxKeys: Int
        /// How long a refusal waits before it is sent (never longer than the wait itself). A
        /// client guessing one attempt after another is slowed to about one a second, and costs
        /// the server nothing meanwhile: the connection waits, no thread does.
        public var refusalPause: Duration

        /// 5 free attempts per account and 20 per address, then 2 s doubling up to 15 minutes.
        public init(
            freeAttemptsPerAccount: Int = 5, freeAttemptsPerAddress: Int = 20,
            firstDelay: Duration = .seconds(2), longestDelay: Duration = .seconds(15 * 60),
            memory: Duration = .seconds(3600), maxKeys: Int = 100_000, refusalPause: Duration = .seconds(1)
        ) {
            self.freeAttemptsPerAccount = freeAttemptsPerAccount
            self.freeAttemptsPerAddress = freeAttemptsPerAddress
            self.firstDelay = firstDelay
            self.longestDelay = longestDelay
            self.memory = memory
            self.maxKeys = maxKeys
            self.refusalPause = refusalPause
        }
    }

    private enum Key: Hashable {
        case account(String)
        case address(IPAddress)
    }

    private struct Count {
        var attempts = 0
        var lastAttempt: ContinuousClock.Instant
        var waitUntil: ContinuousClock.Instant
    }

    /// The policy this throttle applies.
    public let policy: Policy
    private let counts = Mutex<[Key: Count]>([:])

    /// A throttle with its counts in this process's memory.
    public init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// Counts an attempt for `account` from `address`, or throws ``SignInThrottled`` when either
    /// must still wait; a refused attempt is not counted.
    func admit(account: String, from address: IPAddress?, now: ContinuousClock.Instant = .now) throws {
        let keys = [Key.account(account)] + (address.map { [Key.address($0)] } ?? [])
        try counts.withLock { counts in
            let wait = keys.compactMap { counts[$0]?.waitUntil }.max() ?? now
            if wait > now { throw SignInThrottled(retryAfter: wait - now) }
            if counts.count >= policy.maxKeys { forgetIdle(in: &counts, now: now) }
            for key in keys {
                var count = counts[key].flatMap { now - $0.lastAttempt < policy.memory ? $0 : nil } ?? Count(lastAttempt: now, waitUntil: now)
                count.attempts += 1
                count.lastAttempt = now
                count.waitUntil = now + delay(after: count.attempts, free: freeAttempts(for: key))
                counts[key] = count
            }
        }
    }

    /// ``admit(account:from:now:)``, with a refusal sent only after ``Policy/refusalPause``.
    func admitOrPause(account: String, from address: IPAddress?) async throws {
        do {
            try admit(account: account, from: address)
        } catch let refusal as SignInThrottled {
            try? await Task.sleep(for: min(policy.refusalPause, .seconds(refusal.retryAfterSeconds)))
            throw refusal
        }
    }

    /// The password was right: the account's count is cleared, and the address gets its attempt back.
    func succeeded(account: String, from address: IPAddress?) {
        counts.withLock { counts in
            counts[.account(account)] = nil
            if let address, var count = counts[.address(address)] {
                count.attempts -= 1
                count.waitUntil = count.lastAttempt + delay(after: count.attempts, free: policy.freeAttemptsPerAddress)
                counts[.address(address)] = count.attempts > 0 ? count : nil
            }
        }
    }

    /// The password was wrong: the wait the attempt earned starts now, when the guesser learns
    /// the answer, not when the attempt was admitted. Otherwise a slow hash (a busy pool) would
    /// use the wait up before the guesser even saw the refusal.
    func failed(account: String, from address: IPAddress?, now: ContinuousClock.Instant = .now) {
        counts.withLock { counts in
            for key in [Key.account(account)] + (address.map { [Key.address($0)] } ?? []) {
                guard var count = counts[key] else { continue }
                count.waitUntil = max(count.waitUntil, now + delay(after: count.attempts, free: freeAttempts(for: key)))
                counts[key] = count
            }
        }
    }

    /// The attempt was never judged (the hashing pool was full): it is taken back.
    func withdraw(account: String, from address: IPAddress?) {
        counts.withLock { counts in
            for key in [Key.account(account)] + (address.map { [Key.address($0)] } ?? []) {
                guard var count = counts[key] else { continue }
                count.attempts -= 1
                count.waitUntil = count.lastAttempt + delay(after: count.attempts, free: freeAttempts(for: key))
                counts[key] = count.attempts > 0 ? count : nil
            }
        }
    }

    /// How many accounts and addresses are counted now.
    var trackedKeys: Int { counts.withLock { $0.count } }

    private func freeAttempts(for key: Key) -> Int {
        switch key {
        case .account: policy.freeAttemptsPerAccount
        case .address: policy.freeAttemptsPerAddress
        }
    }

    /// No wait within the free attempts; then `firstDelay`, doubling with each attempt.
    private func delay(after attempts: Int, free: Int) -> Duration {
        let over = attempts - free
        guard over > 0 else { return .zero }
        let doublings = min(over - 1, 30)
        return min(policy.firstDelay * (1 << doublings), policy.longestDelay)
    }

    private func forgetIdle(in counts: inout [Key: Count], now: ContinuousClock.Instant) {
        counts = counts.filter { $0.value.waitUntil > now && now - $0.value.lastAttempt < policy.memory }
        guard counts.count >= policy.maxKeys else { return }
        // Still full of waiting keys: keep the most recent half, so a flood of new keys cannot
        // wipe out the waits it is trying to escape.
        let recent = counts.sorted { $0.value.lastAttempt > $1.value.lastAttempt }.prefix(policy.maxKeys / 2)
        counts = Dictionary(uniqueKeysWithValues: recent.map { ($0.key, $0.value) })
    }
}
