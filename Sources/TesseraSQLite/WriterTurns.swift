import Synchronization

/// Writes to one SQLite database take turns here, in the order they asked, before GRDB's writer
/// queue sees them.
///
/// GRDB keeps a cancelled write in its serial queue until its turn comes, and an awaited write
/// cannot be abandoned, since its closure does not escape. So a request whose patience ran out
/// behind a write that waits for another process's lock would wait with it, past its deadline.
/// A write waiting here leaves the line the moment its task is cancelled.
public final class WriterTurns: Sendable {
    private struct Line {
        var taken = false
        var lastNumber = 0
        var waiting: [(number: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private let line = Mutex(Line())

    public init() {}

    /// Whether a write has the turn now.
    public var isTaken: Bool { line.withLock { $0.taken } }

    /// How many writes wait for their turn now (the one writing not counted).
    public var waiting: Int { line.withLock { $0.waiting.count } }

    /// Runs `write` once every write that asked before it has ended. A task cancelled while it
    /// waits leaves at once with `CancellationError`.
    public func inTurn<T>(isolation: isolated (any Actor)? = #isolation, _ write: () async throws -> T) async throws -> T {
        try await take()
        defer { handOn() }
        return try await write()
    }

    private func take() async throws {
        let number = line.withLock { line in
            line.lastNumber += 1
            return line.lastNumber
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Next { case write, wait, leave }
                // Cancellation sets the task's flag before its handler runs, and the handler takes
                // this lock: a waiter is either refused here or found by the handler.
                let next = line.withLock { line -> Next in
                    if Task.isCancelled { return .leave }
                    if !line.taken {
                        line.taken = true
                        return .write
                    }
                    line.waiting.append((number, continuation))
                    return .wait
                }
                switch next {
                case .write: continuation.resume()
                case .leave: continuation.resume(throwing: CancellationError())
                case .wait: break
                }
            }
        } onCancel: {
            let left = line.withLock { line in
                line.waiting.firstIndex { $0.number == number }.map { line.waiting.remove(at: $0).continuation }
            }
            left?.resume(throwing: CancellationError())
        }
    }

    /// Gives the turn to the longest waiting write, or frees it.
    private func handOn() {
        let next = line.withLock { line in
            guard !line.waiting.isEmpty else {
                line.taken = false
                return nil as CheckedContinuation<Void, any Error>?
            }
            return line.waiting.removeFirst().continuation
        }
        next?.resume()
    }
}
