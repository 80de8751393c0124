import Synchronization
public import TesseraHTTP

/// How long the request being answered may wait for its database, in all.
///
/// A page that waits on a stalled database holds its visitor, and a connection and a thread
/// with them, for as long as the stall lasts. With a ``DatabasePatienceMiddleware`` in its chain,
/// an app gives every request that waits one of these, bound as a task-local value around its work,
/// and database adapters wait no longer than it allows for each call (a connection, a lock, an
/// answer): past that, the request is a ``DatabaseUnavailable`` (a 503 with `Retry-After`), and
/// what the adapter started finishes, or is rolled back, in the background.
///
/// The limit is a budget of waiting, not a clock that starts with the request. Only time spent
/// waiting for the database counts, so a request that first spends its time elsewhere (hashing a
/// password under load) still has its full patience for its write; calls that wait at the same
/// time (two regions reading at once) count their overlap once. And the budget is the
/// request's, not each call's: a page whose reads come one after another answers within its
/// patience however many of them meet the stall.
///
/// Outside a request (at start, in a background job) there is none, and adapters use their
/// own limits.
public final class DatabasePatience: Sendable {
    /// The current request's patience; `nil` outside a request, or in an app that sets none.
    @TaskLocal public static var current: DatabasePatience?

    /// The most the request waits for its database, all its calls together.
    public let limit: Duration

    private struct Waiting {
        /// Calls waiting now.
        var calls = 0
        /// When the calls waiting now began to overlap: the first of them started.
        var since = ContinuousClock.now
        /// Time spent waiting before that.
        var spent = Duration.zero
    }

    private let waiting = Mutex(Waiting())

    /// A budget of `limit`, none of it spent.
    public init(limit: Duration) {
        self.limit = limit
    }

    /// Runs one database call of the current request: `call` gets the instant it must stop
    /// waiting at (`nil` outside a request with a patience), and its wait is counted against the
    /// budget. A request that has spent its budget gets ``DatabaseUnavailable`` without calling.
    public static func call<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (ContinuousClock.Instant?) async throws -> T
    ) async throws -> T {
        guard let patience = current else { return try await body(nil) }
        let deadline = patience.start()
        defer { patience.end() }
        guard deadline > .now else { throw DatabaseUnavailable(reason: "the request's patience is spent") }
        return try await body(deadline)
    }

    /// What is left of the budget, from now; zero once it is spent.
    public var remaining: Duration { remaining(at: .now) }

    func remaining(at now: ContinuousClock.Instant) -> Duration {
        waiting.withLock { waiting in max(.zero, limit - waited(waiting, at: now)) }
    }

    /// Marks a call as started, and returns when it stops waiting: calls waiting together share
    /// one deadline, since their waits overlap.
    func start(at now: ContinuousClock.Instant = .now) -> ContinuousClock.Instant {
        waiting.withLock { waiting in
            if waiting.calls == 0 { waiting.since = now }
            waiting.calls += 1
            return now + (limit - waited(waiting, at: now))
        }
    }

    func end(at now: ContinuousClock.Instant = .now) {
        waiting.withLock { waiting in
            waiting.calls -= 1
            if waiting.calls == 0 { waiting.spent += now - waiting.since }
        }
    }

    private func waited(_ waiting: Waiting, at now: ContinuousClock.Instant) -> Duration {
        waiting.spent + (waiting.calls > 0 ? now - waiting.since : .zero)
    }
}

extension DatabasePatience {
    /// `work`'s value, or ``DatabaseUnavailable`` once `deadline` has passed, whichever comes
    /// first. At the deadline the caller goes on at once; the work is cancelled (an adapter that
    /// honours cancellation, as GRDB does, then never starts it or rolls it back) and ends in the
    /// background. A value it still produces after that goes to `abandoned` (a connection opened
    /// too late for its caller goes back to the pool, say). The deadline is a timer of `loop`'s
    /// (the caller's, on a request): when the work wins, nothing of it is left behind.
    public static func value<T: Sendable>(
        of work: Task<T, any Error>, until deadline: ContinuousClock.Instant, on loop: EventLoop?,
        abandoned: (@Sendable (T) -> Void)? = nil
    ) async throws -> T {
        let race = FirstOutcome<T>()
        let expiry = Expiry.after(max(.zero, deadline - .now), on: loop) {
            work.cancel()
            race.finish(.failure(DatabaseUnavailable(reason: "no answer in the request's patience")))
        }
        defer { expiry.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            Task {
                let outcome = await work.result
                if !race.finish(outcome), case .success(let late) = outcome { abandoned?(late) }
            }
        }
    }
}

/// Whichever of two outcomes comes first resumes the caller; the other is dropped.
private final class FirstOutcome<T: Sendable>: Sendable {
    private enum State {
        case starting
        case waiting(CheckedContinuation<T, any Error>)
        case finishedEarly(Result<T, any Error>)
        case over
    }

    private let state = Mutex(State.starting)

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state -> Result<T, any Error>? in
            guard case .finishedEarly(let outcome) = state else {
                state = .waiting(continuation)
                return nil
            }
            state = .over
            return outcome
        }
        if let early { continuation.resume(with: early) }
    }

    /// Hands `outcome` to the caller unless another came first; false when it came second.
    @discardableResult
    func finish(_ outcome: Result<T, any Error>) -> Bool {
        let (first, waiting) = state.withLock { state -> (Bool, CheckedContinuation<T, any Error>?) in
            switch state {
            case .starting:
                state = .finishedEarly(outcome)
                return (true, nil)
            case .waiting(let continuation):
                state = .over
                return (true, continuation)
            case .finishedEarly, .over:
                return (false, nil)
            }
        }
        waiting?.resume(with: outcome)
        return first
    }
}
