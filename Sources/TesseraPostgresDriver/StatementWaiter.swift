/// Who waits for a statement's answer on a ``LoopConnection``: one caller, or one place in a
/// batch whose caller waits for every answer at once.
///
/// A batch exists so that a request that sends many statements together (TechEmpower's twenty
/// queries) waits once, with one continuation, rather than as one child task per statement,
/// each with its own task, continuation and wake-up.
package enum StatementWaiter {
    case one(CheckedContinuation<LoopConnection.Answer, any Error>)
    case place(Int, in: StatementBatch)

    /// Whether an answer is still awaited: a batch that has failed awaits none of its others.
    package var isWaiting: Bool {
        switch self {
        case .one: true
        case .place(_, let batch): batch.isWaiting
        }
    }

    package func resume(returning answer: LoopConnection.Answer) {
        switch self {
        case .one(let continuation): continuation.resume(returning: answer)
        case .place(let index, let batch): batch.deliver(answer, at: index)
        }
    }

    package func resume(throwing error: any Error) {
        switch self {
        case .one(let continuation): continuation.resume(throwing: error)
        case .place(_, let batch): batch.fail(error)
        }
    }
}

/// The answers of statements sent together, handed to their caller when the last comes, or
/// the first failure instead. On its connection's loop only.
package final class StatementBatch: @unchecked Sendable {
    // @unchecked: touched on its connection's loop only.
    private var answers: [LoopConnection.Answer]
    private var remaining: Int
    private var continuation: CheckedContinuation<[LoopConnection.Answer], any Error>?

    package init(count: Int) {
        answers = Array(repeating: LoopConnection.Answer(), count: count)
        remaining = count
    }

    /// Its caller starts to wait.
    package func start(_ continuation: CheckedContinuation<[LoopConnection.Answer], any Error>) {
        self.continuation = continuation
    }

    package var isWaiting: Bool { continuation != nil }

    package func deliver(_ answer: LoopConnection.Answer, at index: Int) {
        guard let continuation else { return }
        answers[index] = answer
        remaining -= 1
        guard remaining == 0 else { return }
        self.continuation = nil
        continuation.resume(returning: answers)
    }

    package func fail(_ error: any Error) {
        continuation?.resume(throwing: error)
        continuation = nil
    }
}
