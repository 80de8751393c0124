import Synchronization
import TesseraSQLite
import Testing

@Suite struct WriterTurnsTests {
    /// Writes run one at a time, in the order they asked.
    @Test func writesTakeTurnsInOrder() async throws {
        let turns = WriterTurns()
        let order = Box<[Int]>([])
        let first = Gate()
        let holder = Task {
            try await turns.inTurn {
                await first.wait()
                order.mutate { $0.append(0) }
            }
        }
        await waitUntil { turns.isTaken }
        var followers: [Task<Void, any Error>] = []
        for number in 1...3 {
            followers.append(Task { try await turns.inTurn { order.mutate { $0.append(number) } } })
            await waitUntil { turns.waiting == number }
        }
        #expect(order.value.isEmpty, "nobody writes while the first holds its turn")
        first.open()
        try await holder.value
        for follower in followers { try await follower.value }
        #expect(order.value == [0, 1, 2, 3])
        #expect(!turns.isTaken && turns.waiting == 0)
    }

    /// A write whose task is cancelled while it waits leaves at once, while the one ahead of it
    /// still holds the turn: a request is never held past its deadline by another's write.
    @Test func aCancelledWaiterLeavesWhileTheTurnIsHeld() async throws {
        let turns = WriterTurns()
        let first = Gate()
        let holder = Task { try await turns.inTurn { await first.wait() } }
        await waitUntil { turns.isTaken }
        let ran = Box(false)
        let waiter = Task { try await turns.inTurn { ran.mutate { $0 = true } } }
        await waitUntil { turns.waiting == 1 }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(turns.isTaken && turns.waiting == 0, "the first still writes; the line is empty")
        first.open()
        try await holder.value
        #expect(!ran.value)
        // The turn is free again for the next write.
        #expect(try await turns.inTurn { 42 } == 42)
    }

    /// A task cancelled before it asks never writes.
    @Test func aTaskCancelledBeforeAskingNeverWrites() async throws {
        let turns = WriterTurns()
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await turns.inTurn { 1 }
        }
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(!turns.isTaken)
    }
}

/// A value tasks share.
private final class Box<Value: Sendable>: Sendable {
    private let state: Mutex<Value>
    init(_ value: Value) { state = Mutex(value) }
    var value: Value { state.withLock { $0 } }
    func mutate(_ change: (inout Value) -> Void) { state.withLock { change(&$0) } }
}

/// A door a task waits at until the test opens it.
private final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}

/// Yields until `condition` holds: what another task has done, not how long it took. A minute
/// without it is a broken test, reported rather than waited on for ever.
private func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
    let givingUp = ContinuousClock.now + .seconds(60)
    while !condition() {
        guard ContinuousClock.now < givingUp else {
            Issue.record("what the test waited for never happened", sourceLocation: sourceLocation)
            return
        }
        try? await Task.sleep(for: .milliseconds(1))
    }
}
