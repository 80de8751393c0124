public import Foundation
import Synchronization

/// Counts in this process's memory: for one instance (the storefront on SQLite), and for tests.
/// Behind a balancer each instance would count its own; use a shared store there.
public final class MemoryRateLimitStore: ImmediateRateLimitStore {
    private let counts = Mutex<[String: RateLimitCount]>([:])
    /// The most keys kept; past it, expired keys are dropped, then those not refused, least
    /// recently hit first.
    public let maxKeys: Int

    /// An empty store that keeps at most `maxKeys` keys, so a flood of new keys cannot fill memory.
    public init(maxKeys: Int = 100_000) {
        precondition(maxKeys > 1, "a rate limit store must keep more than one key")
        self.maxKeys = maxKeys
    }

    /// A lock held for the length of `change`, which never waits.
    public func updateNow<Result>(_ keys: [String], now: Date, _ change: (inout [String: RateLimitCount]) throws -> Result) throws -> Result {
        try counts.withLock { counts in
            var live: [String: RateLimitCount] = [:]
            for key in keys { if let count = counts[key], count.expires > now { live[key] = count } }
            let result = try change(&live)
            for key in keys { counts[key] = live[key] }
            if counts.count > maxKeys { forgetOld(in: &counts, now: now) }
            return result
        }
    }

    /// How many keys are kept now.
    public var keptKeys: Int { counts.withLock { $0.count } }

    private func forgetOld(in counts: inout [String: RateLimitCount], now: Date) {
        counts = counts.filter { $0.value.expires > now }
        guard counts.count > maxKeys else { return }
        // Still full of live keys: keep half, the keys still refused first, then the most
        // recent, so that a flood of new keys cannot wipe out the waits it is trying to escape.
        let kept = counts.sorted { a, b in
            let (aBlocked, bBlocked) = (a.value.blockedUntil > now, b.value.blockedUntil > now)
            return aBlocked != bBlocked ? aBlocked : a.value.lastHit > b.value.lastHit
        }.prefix(maxKeys / 2)
        counts = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }
}
