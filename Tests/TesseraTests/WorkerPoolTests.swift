import Foundation
import Synchronization
import Tessera
import Testing

/// The pool for CPU-heavy work: its own threads, and a queue that refuses instead of growing.
@Suite struct WorkerPoolTests {
    @Test func workRunsOnThePoolsOwnThreads() async throws {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        let callersNiceness = getpriority(which, 0)
        let pool = WorkerPool(name: "pool", threads: 2, queueLimit: 8)
        // The thread's id and its nice value, as the kernel sees them: only the pool's threads run 10 lower.
        let seen = try await withThrowingTaskGroup(of: ThreadSeen.self) { group in
            for _ in 0..<8 {
                group.addTask { try await pool.run { ThreadSeen(thread: pthread_self(), niceness: getpriority(which, 0)) } }
            }
            return try await group.reduce(into: Set<ThreadSeen>()) { $0.insert($1) }
        }
        #expect(Set(seen.map(\.thread)).count <= 2, "\(seen)")
        #expect(!seen.isEmpty && seen.allSatisfy { $0.niceness == min(19, callersNiceness + 10) }, "\(seen)")
        #expect(getpriority(which, 0) == callersNiceness, "the caller keeps its own priority")
        await #expect(throws: CocoaError.self) { try await pool.run { throw CocoaError(.fileNoSuchFile) } }
    }

    struct ThreadSeen: Hashable, Sendable {
        let thread: pthread_t
        let niceness: Int32
    }

    final class Gate: Sendable {
        let started = Atomic(0)
        let isOpen = Atomic(false)
    }

    @Test func aFullQueueRefusesAtOnce() async throws {
        let pool = WorkerPool(name: "busy-pool", threads: 1, queueLimit: 2)
        let gate = Gate()
        // One job holds the only thread; two more fill the queue.
        let blockers = (0..<3).map { _ in
            Task {
                try await pool.run {
                    gate.started.add(1, ordering: .relaxed)
                    while !gate.isOpen.load(ordering: .relaxed) { usleep(1_000) }
                }
            }
        }
        // The first runs and the other two wait in the queue: what the pool says, not a pause.
        while gate.started.load(ordering: .relaxed) == 0 || pool.queuedJobs < 2 { try await Task.sleep(for: .milliseconds(5)) }
        let refusal = await #expect(throws: WorkerPoolFull.self) { try await pool.run { 1 } }
        #expect(refusal?.status == .serviceUnavailable)
        #expect(refusal?.headers[.retryAfter] == "1")
        gate.isOpen.store(true, ordering: .relaxed)
        for blocker in blockers { try await blocker.value }
        #expect(try await pool.run { 42 } == 42, "once the queue drains, work is accepted again")
    }
}
