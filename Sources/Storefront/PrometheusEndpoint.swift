import FoundationEssentials
import Prometheus
import Tessera

#if canImport(Glibc)
import Glibc
#endif

/// `GET /metrics` in Prometheus's text format, on its own port (`METRICS_PORT`), never the
/// public one: what the framework records through swift-metrics (requests, regions, database
/// time), plus two gauges read at scrape time, open connections and resident memory.
struct PrometheusEndpoint: HTTPResponder {
    let registry: PrometheusCollectorRegistry
    let server: HTTPServerState
    private let openConnections: Gauge
    private let residentMemory: Gauge

    init(registry: PrometheusCollectorRegistry, server: HTTPServerState) {
        self.registry = registry
        self.server = server
        openConnections = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "tessera", metricName: "open", unitName: "connections", helpText: "Connections open on the public port."))
        residentMemory = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "process", metricName: "resident_memory", unitName: "bytes", helpText: "Resident memory size in bytes."))
    }

    func respond(to request: Request) async throws -> Response {
        guard request.path == "/metrics" else { throw HTTPError(.notFound) }
        guard request.method == .get || request.method == .head else { throw HTTPError(.methodNotAllowed) }
        openConnections.set(Double(server.openConnections))
        if let bytes = Self.residentBytes() { residentMemory.set(Double(bytes)) }
        var body: [UInt8] = []
        registry.emit(into: &body)
        var response = Response(body: .bytes(body))
        response.headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// From `/proc/self/statm`: its second field is the resident set, in pages.
    static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

extension PrometheusMetricsFactory {
    /// The factory for `registry`, with duration buckets from half a millisecond, where a page
    /// served from memory lands, up to the 10 s a handler may take.
    static func storefront(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500),
            .seconds(5), .seconds(10),
        ]
        return factory
    }
}
