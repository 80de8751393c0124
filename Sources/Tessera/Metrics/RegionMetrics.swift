import Metrics
import Synchronization
import TesseraViews

/// `tessera_region_render_seconds` by `region` and `outcome` (`ok`, `cached`, `failed`,
/// `timed_out`): its count per outcome is how often each region fails, or came from the
/// ``RegionCache``, its buckets how long each takes. Kept only
/// by apps that have ``MetricsMiddleware``; the handles are made once per series, since making
/// one looks it up in the backend's registry.
final class RegionMetrics: Sendable {
    private let timers = Mutex<[String: Metrics.Timer]>([:])

    func record(region: String, outcome: Result<RegionFragment, any Error>, cached: Bool, since start: ContinuousClock.Instant) {
        let label =
            switch outcome {
            case .success: cached ? "cached" : "ok"
            case .failure(is RegionRun.DeadlinePassed): "timed_out"
            case .failure: "failed"
            }
        let key = "\(region) \(label)"
        let timer = timers.withLock { timers in
            if let known = timers[key] { return known }
            let made = Metrics.Timer(label: "tessera_region_render_seconds", dimensions: [("region", region), ("outcome", label)])
            timers[key] = made
            return made
        }
        timer.recordInterval(since: start)
    }
}
