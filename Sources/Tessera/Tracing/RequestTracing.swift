import Foundation
import Synchronization
public import Tracing

/// The spans of a traced request, through swift-distributed-tracing's bootstrapped tracer.
///
/// An app with a ``TracingMiddleware`` in its chain gives each request a server span, named
/// after its route, that continues the caller's W3C `traceparent`; its regions, database calls
/// and live publications are children of it. With tracing off no span is made: a region or a
/// database call pays one task-local read to learn that nothing is traced.
public enum RequestTracing {
    /// Runs `body` in a child span named `name` of the current span, or without one when
    /// nothing is being traced; `body` gets the span, to add attributes.
    public static func withChildSpan<T>(
        _ name: String, ofKind kind: SpanKind = .internal,
        _ body: ((any Span)?) async throws -> T
    ) async rethrows -> T {
        guard let parent = InstrumentationContext.current else { return try await body(nil) }
        return try await withSpan(name, context: parent, ofKind: kind) { span in try await body(span) }
    }

    /// The same, for work that does not wait.
    public static func withChildSpan<T>(_ name: String, ofKind kind: SpanKind = .internal, _ body: ((any Span)?) throws -> T) rethrows -> T {
        guard let parent = InstrumentationContext.current else { return try body(nil) }
        return try withSpan(name, context: parent, ofKind: kind) { span in try body(span) }
    }

    /// A child span of the current one, started now and ended by the caller, for work that
    /// ends elsewhere (a region's task); `nil` when nothing is being traced.
    static func startChildSpan(_ name: String, ofKind kind: SpanKind = .internal) -> (any Span)? {
        guard let parent = InstrumentationContext.current else { return nil }
        return startSpan(name, context: parent, ofKind: kind)
    }

    /// `span`'s W3C `traceparent`, well formed, for carrying the trace to another system (a
    /// comment on a PostgreSQL statement, say); `nil` when the tracer writes none.
    public static func traceparent(of span: any Span) -> String? {
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(span.context, into: &carrier, using: DictionaryInjector())
        return carrier["traceparent"].flatMap { isWellFormed(traceparent: $0) ? $0 : nil }
    }

    /// The trace id in a `traceparent` (`00-<trace id>-<span id>-<flags>`), for log lines.
    static func traceID(in traceparent: String) -> Substring? {
        let parts = traceparent.split(separator: "-")
        return parts.count == 4 && parts[1].count == 32 ? parts[1] : nil
    }

    /// Starts the server span of `request`, continuing its `traceparent` when it is well formed.
    /// Only that header and `tracestate` reach the tracer, so that a tracer that logs what it
    /// could not read never logs a visitor's cookies.
    static func startRequestSpan(for request: Request) -> any Span {
        var context = InstrumentationContext.topLevel
        if let traceparent = request.headers[HTTPField.Name("traceparent")!], isWellFormed(traceparent: traceparent) {
            var carrier = ["traceparent": traceparent]
            if let state = request.headers[HTTPField.Name("tracestate")!], state.utf8.count <= 512 { carrier["tracestate"] = state }
            InstrumentationSystem.instrument.extract(carrier, into: &context, using: DictionaryExtractor())
        }
        let span = startSpan(request.method.rawValue, context: context, ofKind: .server)
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["url.path"] = request.loggedPath
        if !request.id.isEmpty { span.attributes["tessera.request_id"] = request.id }
        return span
    }

    /// Ends a request's span once `response` is sent: now, or for a streamed page (whose
    /// regions may still be rendering) when its stream ends.
    static func end(_ span: any Span, with response: inout Response) {
        let status = response.status
        guard case .stream(let write) = response.body else { return end(span, status: status) }
        let ending = SpanEnding(span: span, status: status)
        response.body = .stream { writer in
            do {
                try await write(writer)
                ending.end()
            } catch {
                span.recordError(error)
                ending.end()
                throw error
            }
        }
    }

    /// Ends a streamed page's span once: when its stream ends, or, for a stream that never runs
    /// (a request given up at its deadline), when the stream is let go.
    private final class SpanEnding: Sendable {
        let span: any Span
        let status: HTTPResponse.Status
        private let ended = Atomic(false)

        init(span: any Span, status: HTTPResponse.Status) {
            self.span = span
            self.status = status
        }

        func end() {
            if !ended.exchange(true, ordering: .relaxed) { RequestTracing.end(span, status: status) }
        }

        deinit { end() }
    }

    /// Ends a request's span with the status it answered.
    static func end(_ span: any Span, status: HTTPResponse.Status) {
        span.attributes["http.response.status_code"] = status.code
        if status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
        span.end()
    }

    /// `00-<32 hex>-<16 hex>-<2 hex>`, lowercase, as W3C Trace Context writes it.
    static func isWellFormed(traceparent: String) -> Bool {
        let parts = traceparent.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.utf8.count) == [2, 32, 16, 2]
            && parts.allSatisfy { $0.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } }
    }

    private struct DictionaryExtractor: Extractor {
        func extract(key: String, from carrier: [String: String]) -> String? {
            carrier[key]
        }
    }

    private struct DictionaryInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
            carrier[key] = value
        }
    }
}

/// A traced request's server span, and its trace id for the request's log lines.
struct RequestTrace: Sendable {
    let span: any Span
    let traceID: String?

    init(span: any Span) {
        self.span = span
        traceID = RequestTracing.traceparent(of: span).flatMap(RequestTracing.traceID(in:)).map(String.init)
    }
}
