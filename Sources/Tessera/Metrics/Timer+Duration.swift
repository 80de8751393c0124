import Metrics

extension Metrics.Timer {
    /// Records a `Duration`, which swift-metrics takes in nanoseconds.
    func record(_ duration: Duration) {
        recordNanoseconds(duration.nanoseconds)
    }

    /// Records the time since `start`.
    func recordInterval(since start: ContinuousClock.Instant) {
        record(ContinuousClock.now - start)
    }
}
