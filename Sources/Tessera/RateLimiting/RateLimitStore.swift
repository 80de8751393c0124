public import Foundation

/// Where rate limits keep their counts: in this process (``MemoryRateLimitStore``), or in a
/// database every instance shares, so that N instances allow what one allows.
///
/// A store knows nothing of policies: it hands a limit the live counts of its keys and keeps
/// what the limit leaves, as one step no other change to those keys can interleave with.
/// ``RateLimit`` counts requests in windows on it; a sign-in throttle keeps its growing waits.
public protocol RateLimitStore: Sendable {
    /// Reads the counts of `keys` that have not expired at `now` (an expired count is absent),
    /// lets `change` edit them, and keeps what it leaves: a count it removed is forgotten. What
    /// `change` throws is thrown, and nothing is kept.
    func update<Result: Sendable>(
        _ keys: [String], now: Date,
        within budget: DatabaseBudget,
        _ change: @escaping @Sendable (inout [String: RateLimitCount]) throws -> Result
    ) async throws -> Result
}

/// A store that answers without waiting, such as ``MemoryRateLimitStore``: a ``RateLimit`` on
/// it decides on the server's thread, and a request that nothing else waits for starts no task.
public protocol ImmediateRateLimitStore: RateLimitStore {
    /// ``RateLimitStore/update(_:now:within:_:)``, at once: `change` runs under a lock, and must not wait.
    func updateNow<Result>(_ keys: [String], now: Date, _ change: (inout [String: RateLimitCount]) throws -> Result) throws -> Result
}

extension ImmediateRateLimitStore {
    public func update<Result: Sendable>(
        _ keys: [String], now: Date,
        within budget: DatabaseBudget,
        _ change: @escaping @Sendable (inout [String: RateLimitCount]) throws -> Result
    ) async throws -> Result {
        try updateNow(keys, now: now, change)
    }
}

/// One key's count.
public struct RateLimitCount: Sendable, Equatable {
    /// How many hits are counted.
    public var hits: Int
    /// When the latest hit came.
    public var lastHit: Date
    /// Until when the key is refused, whatever its hits (a throttle's growing wait).
    public var blockedUntil: Date
    /// When the count is forgotten: the end of its window, or of its memory.
    public var expires: Date

    /// A count of `hits`, refused until `blockedUntil` (by default not at all) and forgotten at `expires`.
    public init(hits: Int, lastHit: Date, blockedUntil: Date? = nil, expires: Date) {
        self.hits = hits
        self.lastHit = lastHit
        self.blockedUntil = blockedUntil ?? lastHit
        self.expires = expires
    }
}
