package import Dispatch
package import Foundation

// `package`: the other targets of this package use them too.
extension Duration {
    /// The whole nanoseconds of this duration: Swift's `Duration` is what settings use;
    /// Dispatch, swift-metrics and the meters count in nanoseconds.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration in seconds, as `Date` arithmetic takes it.
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    package var dispatchInterval: DispatchTimeInterval { .nanoseconds(Int(nanoseconds)) }
}
