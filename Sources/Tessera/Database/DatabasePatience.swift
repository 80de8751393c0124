import Synchronization

/// How long the request being answered waits for its database, each time it asks.
///
/// A page that waits on a stalled database holds its visitor, and a connection and a thread
/// with them, for as long as the stall lasts. With ``ApplicationBuilder/databasePatience`` set,
/// the framework binds it as a task-local value around every request's work, and a database
/// adapter waits no longer than that for each of its calls: a connection, a lock, an answer.
/// Past it, the request is a ``DatabaseUnavailable`` (a 503 with `Retry-After`), and what the
/// adapter started finishes, or is rolled back, in the background. It counts from each call,
/// not from the request's start, so a request that first spends its time elsewhere (hashing a
/// password) still gets its full patience for its write. Outside a request (at start, in a
/// background job) there is none, and adapters use their own limits.
public enum DatabasePatience {
    /// The current request's patience; `nil` outside a request, or in an app that sets none.
    @TaskLocal public static var current: Duration?

    /// When a call to the database that starts now stops waiting, if the request has a patience.
    public static var deadline: ContinuousClock.Instant? {
        current.map { .now + $0 }
    }
}

extension DatabasePatience {
    /// `work`'s value, or ``DatabaseUnavailable`` once `deadline` has passed, whichever comes
    /// first. At the deadline the caller goes on at once; the work is cancelled (an adapter that
    /// honours cancellation, as GRDB does, then never starts it or rolls it back) and ends in the
    /// background.
    public static func value<T: Sendable>(of work: Task<T, any Error>, until deadline: ContinuousClock.Instant) async throws -> T {
        let race = FirstOutcome<T>()
        let timer = Task {
            guard (try? await Task.sleep(until: deadline)) != nil else { return }
            work.cancel()
            race.finish(.failure(DatabaseUnavailable(reason: "no answer in the request's patience")))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            Task { race.finish(await work.result) }
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

    func finish(_ outcome: Result<T, any Error>) {
        let waiting = state.withLock { state -> CheckedContinuation<T, any Error>? in
            switch state {
            case .starting:
                state = .finishedEarly(outcome)
                return nil
            case .waiting(let continuation):
                state = .over
                return continuation
            case .finishedEarly, .over:
                return nil
            }
        }
        waiting?.resume(with: outcome)
    }
}
