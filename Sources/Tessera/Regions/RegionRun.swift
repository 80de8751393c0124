import Logging
import Synchronization
import TesseraHTTP
import TesseraViews
import Tracing

/// One child controller running for its region, within its deadline.
///
/// The child starts with `Task.immediate`: one that does not suspend (rendering from memory, say)
/// finishes right here, with no thread hop and no timer. Only a child that suspends gets a
/// deadline timer on the request's loop, cancelled as soon as the child answers; whichever comes
/// first decides the outcome, so a child that ignores cancellation cannot hold the page.
final class RegionRun: Sendable {
    /// A region that did not answer in time. An optional region shows its failure fragment; a
    /// required one fails the page with a 503 and `Retry-After`, like ``DatabaseUnavailable``:
    /// a slow part behind the page (a stalled database, an overloaded service) is not a fault
    /// of the request or the code, and the next attempt may well succeed.
    struct DeadlinePassed: LocalizedResponseError, CustomStringConvertible {
        let deadline: Duration
        var status: HTTPResponse.Status { .serviceUnavailable }
        func publicMessage(in language: Language) -> String { Messages.errorTooSlow.string(in: language) }
        var headers: HTTPFields { [.retryAfter: "5"] }
        var description: String { "the region did not answer within \(deadline)" }
    }

    private enum State {
        case running(waiters: [CheckedContinuation<Result<RegionFragment, any Error>, Never>], timer: Expiry?)
        case finished(Result<RegionFragment, any Error>)
    }

    private let state = Mutex(State.running(waiters: [], timer: nil))
    private let child = Mutex<Task<Void, Never>?>(nil)
    private let name: String
    private let startedAt = ContinuousClock.now
    private let metrics: RegionMetrics?
    /// The region's span, a child of the page's, when the request is traced: regions that run
    /// at once show as overlapping children.
    private let span: (any Span)?

    init(_ region: Region, named name: String, in context: RequestContext) {
        self.name = name
        self.metrics = context.application.regionMetrics
        self.span = RequestTracing.startChildSpan("region \(name)")
        // On the request's event loop, where the page runs: the child resumes there after each wait.
        let task = Task.immediate(executorPreference: EventLoop.current) { [self, span] in
            let outcome: Result<RegionFragment, any Error>
            var cached = false
            do {
                let fragment =
                    if let span {
                        try await InstrumentationContext.withValue(span.context) { try await region.fragment(in: context) }
                    } else {
                        try await region.fragment(in: context)
                    }
                (outcome, cached) = (.success(fragment.fragment), fragment.cached)
            } catch {
                outcome = .failure(error)
            }
            finish(with: outcome, cached: cached)
        }
        child.withLock { $0 = task }
        guard finishedOutcome == nil else { return }
        // On the request's loop's clock: a child that answers in time leaves no timer behind.
        let timer = Expiry.after(region.deadline, on: EventLoop.current) { [self] in
            if finish(with: .failure(RegionRun.DeadlinePassed(deadline: region.deadline))) { cancel() }
        }
        let alreadyDone: Bool = state.withLock { state in
            guard case .running(let waiters, nil) = state else { return true }
            state = .running(waiters: waiters, timer: timer)
            return false
        }
        if alreadyDone { timer.cancel() }
    }

    /// The outcome if the child has answered (or its deadline passed), without waiting.
    var finishedOutcome: Result<RegionFragment, any Error>? {
        state.withLock { state in
            if case .finished(let outcome) = state { return outcome }
            return nil
        }
    }

    func outcome() async -> Result<RegionFragment, any Error> {
        if let done = finishedOutcome { return done }
        return await withCheckedContinuation { continuation in
            let done: Result<RegionFragment, any Error>? = state.withLock { state in
                switch state {
                case .finished(let outcome):
                    return outcome
                case .running(let waiters, let timer):
                    state = .running(waiters: waiters + [continuation], timer: timer)
                    return nil
                }
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// Records the first outcome; true when this call was first.
    @discardableResult
    private func finish(with outcome: Result<RegionFragment, any Error>, cached: Bool = false) -> Bool {
        let pending: (waiters: [CheckedContinuation<Result<RegionFragment, any Error>, Never>], timer: Expiry?)? = state.withLock { state in
            guard case .running(let waiters, let timer) = state else { return nil }
            state = .finished(outcome)
            return (waiters, timer)
        }
        guard let pending else { return false }
        pending.timer?.cancel()
        metrics?.record(region: name, outcome: outcome, cached: cached, since: startedAt)
        if let span {
            span.attributes["tessera.region.cached"] = cached
            if case .failure(let error) = outcome { span.recordError(error) }
            span.end()
        }
        for waiter in pending.waiters { waiter.resume(returning: outcome) }
        return true
    }

    func cancel() {
        child.withLock { $0 }?.cancel()
    }
}
