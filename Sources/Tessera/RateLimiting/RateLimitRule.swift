public import ArgumentParser

/// How many requests a ``RateLimit`` allows in how long: `10/hour`, `30/minute`, as operators
/// write it in settings.
public struct RateLimitRule: Sendable, Equatable, LosslessStringConvertible {
    /// Requests allowed in one window.
    public let limit: Int
    /// How long a window lasts from its first request.
    public let window: Duration

    /// `limit` requests (at least one) per `window` (longer than zero).
    public init(limit: Int, per window: Duration) {
        precondition(limit > 0 && window > .zero, "a rate limit allows at least one request in a window that lasts")
        self.limit = limit
        self.window = window
    }

    /// Reads `N/second`, `N/minute`, `N/hour` or `N/day` (N from 1 to 1,000,000); `nil` for anything else.
    public init?(_ description: String) {
        let parts = description.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let limit = Int(parts[0]), (1...1_000_000).contains(limit),
            let seconds = Self.units[String(parts[1])]
        else { return nil }
        self.init(limit: limit, per: .seconds(seconds))
    }

    /// `N/unit`, the form ``init(_:)`` reads, when the window is one unit; else in seconds.
    public var description: String {
        let unit = Self.units.first { .seconds($0.value) == window }?.key
        return unit.map { "\(limit)/\($0)" } ?? "\(limit) per \(window)"
    }

    private static let units: [String: Int64] = ["second": 1, "minute": 60, "hour": 3600, "day": 86_400]
}

extension RateLimitRule: ExpressibleByArgument {
    /// A flag's value, as ``init(_:)`` reads it.
    public init?(argument: String) {
        self.init(argument)
    }
}
