import Tracing

/// Gives every request a server span, through swift-distributed-tracing's bootstrapped tracer:
/// named after its route, continuing the caller's W3C `traceparent`, with its regions, database
/// calls and live publications as children (``RequestTracing``). The span is the current trace
/// context for everything after this step, and ends with the answer, for a streamed page when
/// its stream ends.
///
/// Put it first in the chain, so that its span covers every other step. An app without it makes
/// no span at all.
public struct TracingMiddleware: SurroundingMiddleware {
    /// A step that traces every request the app accepts.
    public init() {}

    public func surround(_ context: inout RequestContext, _ rest: (inout RequestContext) -> NowOrLater<Void, Response>) -> NowOrLater<Void, Response>
    {
        // A kept page's render for nobody is part of the request that asked for it: its regions'
        // and database calls' spans are that request's children.
        guard context.keptPageRecord == nil else { return rest(&context) }
        let trace = RequestTrace(span: RequestTracing.startRequestSpan(for: context.request))
        context.trace = trace
        let span = trace.span
        let answer = InstrumentationContext.withValue(span.context, operation: { rest(&context) })
        switch answer {
        case .now(var response):
            RequestTracing.end(span, with: &response)
            response.traceID = trace.traceID
            return .now(response)
        case .later:
            return .later { _ in
                try await InstrumentationContext.withValue(span.context) {
                    do {
                        var response = try await answer.value()
                        RequestTracing.end(span, with: &response)
                        response.traceID = trace.traceID
                        return response
                    } catch {
                        // Only a step around this one could throw here (the chain answers its
                        // own errors): the span records the error, not a status it cannot know.
                        span.recordError(error)
                        span.setStatus(SpanStatus(code: .error))
                        span.end()
                        throw error
                    }
                }
            }
        }
    }

    /// Names the span after the route that matched, once one did.
    public func after(_ response: inout Response, for context: RequestContext) {
        guard let span = context.trace?.span, let entry = context.route?.entry else { return }
        span.operationName = "\(context.request.method.rawValue) \(entry.pattern)"
        span.attributes["http.route"] = "\(entry.pattern)"
    }
}
