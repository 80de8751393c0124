import HTTPTypes
import Metrics
import Synchronization
import TesseraHTTP

/// Counts and times every request through swift-metrics, so whichever backend the app
/// bootstraps (Prometheus, StatsD, OpenTelemetry) gets them:
/// - `http_requests_total` and the `http_request_duration_seconds` histogram, by `route` (the
///   matched route's name, `unmatched` otherwise, so that random URLs cannot grow the number of
///   series), `method` and `status` class (`2xx` … `5xx`);
/// - `http_request_database_seconds`, the time each request spent in its database
///   (``DatabaseBudget/timeSpent``), by `route`.
///
/// Put it first in the chain: its time then covers every other step, and the status it sees is
/// the final one, error pages included. For a streamed page the time is to its head: regions
/// still rendering after that (and their database calls) are in `tessera_region_render_seconds`. Requests the server refuses by itself (413, 431 …)
/// are counted as `unmatched`.
public struct MetricsMiddleware: Middleware {
    private let instruments = Instruments()

    /// A step that records into the process's swift-metrics backend.
    public init() {}

    /// Counts refused requests too.
    public var runsForRejectedRequests: Bool { true }

    /// Notes when the request started, and has its database time kept; a kept page's render for
    /// nobody is no request, and is not counted (its visitor's request is).
    public func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
        guard context.keptPageRecord == nil else { return .next }
        context[StartedAt.self] = .now
        context.databaseBudget.metered = true
        return .next
    }

    /// Records the request with its final status.
    public func after(_ response: inout Response, for context: RequestContext) {
        guard let startedAt = context[StartedAt.self] else { return }
        let series = instruments.series(route: context.route?.entry, method: context.request.method, status: response.status.code / 100)
        series.requests.increment()
        series.duration.recordInterval(since: startedAt)
        series.database.record(context.databaseBudget.timeSpent)
    }

    enum StartedAt: RequestValueKey { typealias Value = ContinuousClock.Instant }

    /// The method as a label: the ones the server answers, or `other`, so that a client sending
    /// made-up methods (each a 501) cannot add series without end.
    static func label(for method: HTTPRequest.Method) -> String {
        switch method {
        case .get, .head, .post, .put, .delete, .patch, .options: method.rawValue
        default: "other"
        }
    }

    /// The handles of each series, made once: making a swift-metrics handle looks it up in the
    /// backend's registry, which is too slow to do per request. They are found by the matched
    /// route's identity, the method and the status class, so a request builds no label to find
    /// its series.
    final class Instruments: Sendable {
        struct Series: Sendable {
            let requests: Counter
            let duration: Metrics.Timer
            let database: Metrics.Timer
        }

        private struct Key: Hashable {
            /// The matched route; `nil` for a request no route matched.
            let route: ObjectIdentifier?
            /// The method's label (``MetricsMiddleware/label(for:)``).
            let method: String
            let status: Int
        }

        private let series = Mutex<[Key: Series]>([:])

        func series(route: RouteEntry?, method: HTTPRequest.Method, status: Int) -> Series {
            let key = Key(route: route.map(ObjectIdentifier.init), method: MetricsMiddleware.label(for: method), status: status)
            if let known = series.withLock({ $0[key] }) { return known }
            let routeName = route?.name ?? "unmatched"
            let dimensions = [("route", routeName), ("method", key.method), ("status", "\(status)xx")]
            let made = Series(
                requests: Counter(label: "http_requests_total", dimensions: dimensions),
                duration: Metrics.Timer(label: "http_request_duration_seconds", dimensions: dimensions),
                database: Metrics.Timer(label: "http_request_database_seconds", dimensions: [("route", routeName)])
            )
            return series.withLock { series in
                if let raced = series[key] { return raced }
                series[key] = made
                return made
            }
        }
    }
}
