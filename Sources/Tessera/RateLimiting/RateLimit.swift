import Foundation
import Logging

/// A limit on a group of routes, such as "registration: 10 an hour per address": Rails'
/// `rate_limit to:, within:, by:` and ASP.NET Core's fixed-window limiter, as a middleware step
/// for ``RouterBuilder/group(_:routes:)``.
///
/// Each key's window starts at its first request; the request past the limit is answered with
/// ``RateLimited`` (429, `Retry-After`, a page in the visitor's language) before its route runs.
/// Only the group's routes meet the step, so an unlimited page pays nothing for it.
public struct RateLimit: Middleware {
    /// Names the limit in its keys and logs, so two limits never share a count.
    public let name: String
    /// How many requests per window.
    public let rule: RateLimitRule
    /// Whose requests are counted together.
    public let key: RateLimitKey
    /// Where the counts live: in memory, or shared by every instance.
    public let store: any RateLimitStore
    /// The store again when it answers at once: then the step decides without a task.
    private let immediateStore: (any ImmediateRateLimitStore)?

    /// `rule`'s requests per window for each `key`, counted in `store`.
    public init(_ name: String, _ rule: RateLimitRule, by key: RateLimitKey, store: any RateLimitStore) {
        self.name = name
        self.rule = rule
        self.key = key
        self.store = store
        immediateStore = store as? any ImmediateRateLimitStore
    }

    public func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
        guard let subject = key.subject(context) else { return .next }
        let storeKey = "\(name):\(subject)"
        guard let immediateStore else {
            return .later { [self] context in
                try await count(storeKey, now: Date(), in: context)
                return nil
            }
        }
        let now = Date()
        do {
            try immediateStore.updateNow([storeKey], now: now) { try count(storeKey, in: &$0, now: now) }
        } catch let refusal as RateLimited {
            log(refusal, in: context)
            throw refusal
        }
        return .next
    }

    /// Counts one request for `subject`, which the route reads itself (a form's e-mail, say), or
    /// throws ``RateLimited``: for a limit whose key is not known before the route runs.
    public func count(_ subject: String, in context: RequestContext) async throws {
        try await count("\(name):\(subject)", now: Date(), in: context)
    }

    /// Counts one request for `storeKey` at `now` in the store, as ``before(_:)`` does, or
    /// throws ``RateLimited``, logged in `context` when there is one.
    func count(_ storeKey: String, now: Date, in context: RequestContext? = nil) async throws {
        do {
            try await store.update([storeKey], now: now, within: context?.databaseBudget ?? .outsideRequest) {
                try count(storeKey, in: &$0, now: now)
            }
        } catch let refusal as RateLimited {
            if let context { log(refusal, in: context) }
            throw refusal
        }
    }

    /// Counts one request for `storeKey` in `counts`, or throws ``RateLimited`` when its window is full.
    private func count(_ storeKey: String, in counts: inout [String: RateLimitCount], now: Date) throws {
        guard var count = counts[storeKey] else {
            counts[storeKey] = RateLimitCount(hits: 1, lastHit: now, expires: now + rule.window.timeInterval)
            return
        }
        guard count.hits < rule.limit else { throw RateLimited(retryAfter: count.expires.timeIntervalSince(now)) }
        count.hits += 1
        count.lastHit = now
        counts[storeKey] = count
    }

    private func log(_ refusal: RateLimited, in context: RequestContext) {
        context.logger.notice("rate limited", metadata: ["limit": "\(name)", "retry_after": "\(refusal.retryAfterSeconds)"])
    }
}

/// Whose requests a ``RateLimit`` counts together.
public struct RateLimitKey: Sendable {
    /// The key of a request, or `nil` to let it pass uncounted.
    public let subject: @Sendable (RequestContext) -> String?

    /// Requests with the same `subject` share a count.
    public init(_ subject: @escaping @Sendable (RequestContext) -> String?) {
        self.subject = subject
    }

    /// No key before the route runs: the route counts with ``RateLimit/count(_:in:)``.
    public static let countedByRoute = RateLimitKey { _ in nil }

    /// The client's address (behind a trusted proxy, the one it reports).
    public static let clientAddress = RateLimitKey { context in
        (context.request.clientAddress ?? context.request.remoteAddress).map { "address:\($0)" } ?? "address:unknown"
    }
}
