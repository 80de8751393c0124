import Synchronization

/// Wakes one task that sleeps until there is work: a background worker waits on it instead of
/// polling, so an idle server does nothing at all (no wake-ups, no allocations) until work
/// arrives or a time it knows of comes.
///
/// A signal sent while nobody waits is kept for the next wait (one, however many were sent), so
/// none is lost between a worker's last look for work and its wait. One task waits at a time.
public final class WakeSignal: Sendable {
    private struct State {
        var signalled = false
        /// The wait in progress, by number, and its continuation once it has one.
        var waiter: (number: UInt64, continuation: CheckedContinuation<Bool, Never>?)?
        /// A wait ended (cancelled, or its time passed) before its continuation was in place.
        var endedEarly: UInt64?
        var nextNumber: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Wakes the waiting task, or the next one to wait.
    public func signal() {
        let waiting = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let continuation = state.waiter?.continuation else {
                state.signalled = true
                return nil
            }
            state.waiter = nil
            return continuation
        }
        waiting?.resume(returning: true)
    }

    /// Sleeps until a signal (`true`; at once when one is pending), until `limit` has passed
    /// (`false`; `nil`: no limit) or until the task is cancelled (`false`).
    public func wait(atMost limit: Duration? = nil) async -> Bool {
        let number: UInt64? = state.withLock { state in
            if state.signalled {
                state.signalled = false
                return nil
            }
            precondition(state.waiter == nil, "one task waits on a WakeSignal at a time")
            state.nextNumber += 1
            state.waiter = (state.nextNumber, nil)
            return state.nextNumber
        }
        guard let number else { return true }
        let timer = limit.map { limit in
            Task {
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                self.end(number)
            }
        }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let endsAtOnce = state.withLock { state -> Bool? in
                    if state.signalled {
                        state.signalled = false
                        state.waiter = nil
                        return true
                    }
                    if state.endedEarly == number {
                        state.endedEarly = nil
                        state.waiter = nil
                        return false
                    }
                    state.waiter = (number, continuation)
                    return nil
                }
                if let endsAtOnce { continuation.resume(returning: endsAtOnce) }
            }
        } onCancel: {
            end(number)
        }
    }

    /// Ends wait `number` without a signal, whether or not its continuation is in place yet.
    private func end(_ number: UInt64) {
        let waiting = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let waiter = state.waiter, waiter.number == number else { return nil }
            guard let continuation = waiter.continuation else {
                state.endedEarly = number
                return nil
            }
            state.waiter = nil
            return continuation
        }
        waiting?.resume(returning: false)
    }
}
