import Synchronization
public import TesseraHTTP

/// What one request may spend on its database: how long it may wait, all its calls together
/// (its patience), and the time it spent, for the `http_request_database_seconds` metric.
///
/// A page that waits on a stalled database holds its visitor, and a connection and a thread
/// with them, for as long as the stall lasts. With a ``DatabasePatienceMiddleware`` in its chain,
/// an app gives every request a patience, and database adapters wait no longer than it allows
/// for each call (a connection, a lock, an answer): past that, the request is a
/// ``DatabaseUnavailable`` (a 503 with `Retry-After`), and what the adapter started finishes, or
/// is rolled back, in the background.
///
/// The budget travels as a value: in the request's context (``RequestContext/databaseBudget``),
/// then as the `within` parameter of every store and adapter call. So a task the handler starts
/// keeps the budget of the request it took it from, and a call made without one does not
/// compile: outside a request, the caller says so (``outsideRequest``).
///
/// The patience is a budget of waiting, not a clock that starts with the request. Only time spent
/// waiting for the database counts, so a request that first spends its time elsewhere (hashing a
/// password under load) still has its full patience for its write; calls that wait at the same
/// time (two regions reading at once) count their overlap once. And the budget is the
/// request's, not each call's: a page whose reads come one after another answers within its
/// patience however many of them meet the stall.
public struct DatabaseBudget: Sendable {
    /// The most the request waits for its database, all its calls together; `nil` when the app
    /// sets none, and adapters use their own limits.
    public internal(set) var patience: Duration?
    /// Whether the time spent is kept, for ``MetricsMiddleware``.
    var metered: Bool
    /// Where the waiting and the time are counted: the request's own, shared by every copy of
    /// its context; `nil` for work outside a request with no patience.
    let account: Account?

    init(patience: Duration?, metered: Bool, account: Account?) {
        self.patience = patience
        self.metered = metered
        self.account = account
    }

    /// For work outside any request (a background job, seeding, a test): adapters use their own
    /// limits, and nothing is metered.
    public static let outsideRequest = DatabaseBudget(patience: nil, metered: false, account: nil)

    /// For work outside a request that must not wait longer than `patience` in all.
    public static func outsideRequest(patience: Duration) -> DatabaseBudget {
        DatabaseBudget(patience: patience, metered: false, account: Account())
    }

    /// Runs one database call that may wait: `call` gets the instant it must stop waiting at
    /// (`nil` without a patience), and its wait is counted against the budget. A request that
    /// has spent its budget gets ``DatabaseUnavailable`` without calling.
    public func call<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (ContinuousClock.Instant?) async throws -> T
    ) async throws -> T {
        guard let account, patience != nil || metered else { return try await body(nil) }
        let start = ContinuousClock.now
        let deadline = patience.map { account.start(limit: $0, at: start) }
        defer {
            let end = ContinuousClock.now
            if patience != nil { account.end(at: end) }
            if metered { account.add(end - start) }
        }
        if let deadline, deadline <= start { throw DatabaseUnavailable(reason: "the request's patience is spent") }
        return try await body(deadline)
    }

    /// Runs one database call that does not wait (a read on the caller's thread), adding its
    /// time to the request's.
    public func measure<T>(_ call: () throws -> T) rethrows -> T {
        guard metered, let account else { return try call() }
        let start = ContinuousClock.now
        defer { account.add(ContinuousClock.now - start) }
        return try call()
    }

    /// The time spent in the database so far, all calls together; zero unless metered.
    public var timeSpent: Duration { account?.timeSpent ?? .zero }

    /// What is left of the patience, from now; `nil` without one, zero once it is spent.
    public var remaining: Duration? {
        guard let patience, let account else { return nil }
        return account.remaining(limit: patience, at: .now)
    }
}

extension DatabaseBudget {
    /// The count of one request's waiting and time. Its own class only outside a request: a
    /// request's is the core its context already allocates (``RequestContext``), so a budget
    /// costs a request no allocation.
    class Account: @unchecked Sendable {
        private struct Waiting {
            /// Calls waiting now.
            var calls = 0
            /// When the calls waiting now began to overlap: the first of them started.
            var since = ContinuousClock.now
            /// Time spent waiting before that.
            var spent = Duration.zero
        }

        private let waiting = Mutex(Waiting())
        private let nanoseconds = Atomic<Int64>(0)

        init() {}

        final var timeSpent: Duration { .nanoseconds(nanoseconds.load(ordering: .relaxed)) }

        final func add(_ duration: Duration) {
            nanoseconds.add(duration.nanoseconds, ordering: .relaxed)
        }

        final func remaining(limit: Duration, at now: ContinuousClock.Instant) -> Duration {
            waiting.withLock { waiting in max(.zero, limit - Self.waited(waiting, at: now)) }
        }

        /// Marks a call as started, and returns when it stops waiting: calls waiting together
        /// share one deadline, since their waits overlap.
        final func start(limit: Duration, at now: ContinuousClock.Instant) -> ContinuousClock.Instant {
            waiting.withLock { waiting in
                if waiting.calls == 0 { waiting.since = now }
                waiting.calls += 1
                return now + (limit - Self.waited(waiting, at: now))
            }
        }

        final func end(at now: ContinuousClock.Instant) {
            waiting.withLock { waiting in
                waiting.calls -= 1
                if waiting.calls == 0 { waiting.spent += now - waiting.since }
            }
        }

        private static func waited(_ waiting: Waiting, at now: ContinuousClock.Instant) -> Duration {
            waiting.spent + (waiting.calls > 0 ? now - waiting.since : .zero)
        }
    }
}
extension DatabaseBudget {
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
