import Logging

/// One line per request, as operators expect from nginx or Rails: method, target, status,
/// body bytes and duration. It goes through swift-log at `info`, so `LOG_LEVEL=warning` silences it.
enum AccessLog {
    static func record(_ context: ConnectionRequest, completedNormally: Bool) {
        guard context.core.accessLogEnabled, let startedAt = context.startedAt else { return }
        let logger = context.core.logger
        let (status, bytes) = context.outcome()
        let elapsed = (ContinuousClock.now - startedAt).components
        let micros = elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000
        let fraction = String(micros % 1000)
        let duration = "\(micros / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)ms"
        let method = context.hasHead ? context.method.rawValue : "-"
        var metadata: Logger.Metadata = [:]
        if !context.requestID.isEmpty { metadata["request_id"] = "\(context.requestID)" }
        if let traceID = context.answeredTraceID { metadata["trace_id"] = "\(traceID)" }
        if let remote = context.remoteAddress { metadata["remote"] = "\(remote)" }
        if !completedNormally { metadata["aborted"] = "true" }
        logger.info(
            "\(method) \(context.loggedTarget) \(status.map(String.init) ?? "-") \(bytes) \(duration)",
            metadata: metadata
        )
    }
}
