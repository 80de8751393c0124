import Dispatch
import NIOCore

extension Duration {
    /// The whole nanoseconds of this duration: Swift's `Duration` is what the pool's settings
    /// use, NIO and Dispatch count their timeouts in nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    var timeAmount: TimeAmount { .nanoseconds(nanoseconds) }
    var dispatchInterval: DispatchTimeInterval { .nanoseconds(Int(nanoseconds)) }
}
