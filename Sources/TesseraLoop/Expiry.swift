import Synchronization

/// A deadline that calls its closure once, when it comes, unless cancelled first: how work is
/// raced against time (a database call against the request's patience, a region against its
/// deadline, readiness checks against their timeout).
///
/// On an event loop it is one of the loop's timers (``EventLoop/schedule(after:repeating:_:)``):
/// cancelling it takes it off the loop's heap, and nothing is left behind. A task that sleeps
/// instead leaves a timer with the system's dispatch queue when it is cancelled, which fires at
/// the original deadline anyway and allocates then: seconds later, in the middle of whatever
/// the process does next. Without a loop (a test run in process) it is such a task.
public final class Expiry: Sendable {
    private static let pending = 0
    private static let fired = 1
    private static let cancelled = 2

    private let state = Atomic<Int>(Expiry.pending)
    /// The loop and its timer, once scheduled there; or the sleeping task without a loop.
    private let scheduled = Mutex<Scheduled?>(nil)

    private enum Scheduled: @unchecked Sendable {
        // @unchecked: a LoopTimer is only ever used on its own loop's thread.
        case loop(EventLoop, LoopTimer)
        case task(Task<Void, Never>)
    }

    private init() {}

    /// Calls `expire` once `delay` has passed, on `loop` (from any thread), or without one after
    /// a sleeping task's wait; unless ``cancel()`` comes first.
    public static func after(_ delay: Duration, on loop: EventLoop?, _ expire: @escaping @Sendable () -> Void) -> Expiry {
        let expiry = Expiry()
        let fire: @Sendable () -> Void = {
            if expiry.state.compareExchange(expected: pending, desired: fired, ordering: .acquiringAndReleasing).exchanged { expire() }
        }
        guard let loop else {
            expiry.scheduled.withLock {
                $0 = .task(
                    Task {
                        guard (try? await Task.sleep(for: delay)) != nil else { return }
                        fire()
                    })
            }
            return expiry
        }
        if loop.inEventLoop {
            let timer = loop.schedule(after: delay, fire)
            expiry.scheduled.withLock { $0 = .loop(loop, timer) }
        } else {
            let deadline = ContinuousClock.now + delay
            loop.execute {
                guard expiry.state.load(ordering: .acquiring) == pending else { return }
                let timer = loop.schedule(after: max(.zero, deadline - .now), fire)
                expiry.scheduled.withLock { $0 = .loop(loop, timer) }
            }
        }
        return expiry
    }

    /// Stops it: its closure is not called, unless it already was.
    public func cancel() {
        guard state.compareExchange(expected: Self.pending, desired: Self.cancelled, ordering: .acquiringAndReleasing).exchanged else { return }
        switch scheduled.withLock({ $0 }) {
        case .loop(let loop, let timer):
            if loop.inEventLoop {
                loop.cancel(timer)
            } else {
                loop.execute { loop.cancel(timer) }
            }
        case .task(let task):
            task.cancel()
        case nil:
            // Still on its way to its loop, which finds it cancelled.
            break
        }
    }
}

extension Expiry {
    /// Sleeps until `deadline`, on `loop`'s clock when there is one (see ``after(_:on:_:)``);
    /// throws `CancellationError` at once when the task is cancelled, leaving nothing behind:
    /// the sleeping side of a race in a task group, which the group cancels when the work wins.
    public static func sleep(until deadline: ContinuousClock.Instant, on loop: EventLoop?) async throws {
        let wake = SleepWake()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                wake.start(continuation, expiry: Expiry.after(max(.zero, deadline - .now), on: loop) { wake.finish(nil) })
            }
        } onCancel: {
            wake.finish(CancellationError())
        }
    }

    /// One sleep's continuation and expiry: resumed once, by its expiry or by cancellation,
    /// whichever comes first, even when cancellation comes before the sleep began.
    private final class SleepWake: Sendable {
        private enum State {
            case starting
            case sleeping(CheckedContinuation<Void, any Error>, Expiry)
            /// Ended before it started: cancelled already.
            case ended((any Error)?)
            case over
        }

        private let state = Mutex(State.starting)

        func start(_ continuation: CheckedContinuation<Void, any Error>, expiry: Expiry) {
            let early = state.withLock { state -> (any Error)?? in
                guard case .ended(let error) = state else {
                    state = .sleeping(continuation, expiry)
                    return nil
                }
                state = .over
                return .some(error)
            }
            guard let early else { return }
            expiry.cancel()
            if let error = early { continuation.resume(throwing: error) } else { continuation.resume() }
        }

        func finish(_ error: (any Error)?) {
            let sleeping = state.withLock { state -> (CheckedContinuation<Void, any Error>, Expiry)? in
                switch state {
                case .starting:
                    state = .ended(error)
                    return nil
                case .sleeping(let continuation, let expiry):
                    state = .over
                    return (continuation, expiry)
                case .ended, .over:
                    return nil
                }
            }
            guard let (continuation, expiry) = sleeping else { return }
            expiry.cancel()
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }
    }
}
