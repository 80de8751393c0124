import Foundation
public import TesseraViews

#if canImport(Glibc)
import Glibc
#endif

/// A few threads of their own, for CPU-heavy work such as password hashing, with a bounded queue.
///
/// Work like PBKDF2 takes tens of milliseconds of one core. Run on the threads that serve and
/// render pages, a handful of sign-in attempts at once stalls the whole site. Here it runs on
/// `threads` threads at a lower scheduling priority, so pages go first when the cores are busy.
/// The queue is bounded: when `queueLimit` jobs already wait, ``run(_:)`` throws
/// ``WorkerPoolFull`` at once, a 503, instead of letting a queue (and its latency) grow.
public final class WorkerPool: Sendable {
    private let shared: Shared

    /// - Parameters:
    ///   - name: the threads' name, as `top -H` and `perf` show it.
    ///   - threads: how many jobs run at once.
    ///   - queueLimit: how many more may wait for a thread before new ones are refused.
    ///   - niceness: how much lower than the rest of the process the threads run (Linux `nice`, 0–19).
    public init(name: String, threads: Int, queueLimit: Int, niceness: Int32 = 10) {
        shared = Shared(queueLimit: queueLimit)
        for index in 0..<max(1, threads) {
            let shared = self.shared
            let threadName = "\(name)-\(index)"
            let thread = Thread {
                // Set from the thread itself, so the system has it too, as `top -H` and `perf` show it.
                Thread.current.name = threadName
                #if os(Linux)
                // On Linux the nice value belongs to the thread, and `0` names the calling one.
                // Relative to the value inherited from the process, so a server started under
                // `nice` keeps its pool below its pages too.
                let which = __priority_which_t(PRIO_PROCESS.rawValue)
                _ = setpriority(which, 0, min(19, getpriority(which, 0) + niceness))
                #endif
                shared.serve()
            }
            thread.start()
        }
    }

    deinit {
        shared.stop()
    }

    /// How many jobs wait for a thread now, besides those running.
    public var queuedJobs: Int { shared.queuedJobs }

    /// Runs `work` on one of the pool's threads and returns its result; throws
    /// ``WorkerPoolFull`` at once when the queue is full.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let accepted = shared.enqueue {
                continuation.resume(with: Result { try work() })
            }
            if !accepted { continuation.resume(throwing: WorkerPoolFull()) }
        }
    }

    /// The jobs and the condition the threads wait on.
    private final class Shared: @unchecked Sendable {
        // @unchecked: `jobs`, `isStopping` and `idleThreads` are only touched with `condition` locked.
        private let condition = NSCondition()
        private var jobs: [@Sendable () -> Void] = []
        private var isStopping = false
        private let queueLimit: Int
        private var idleThreads = 0

        init(queueLimit: Int) {
            self.queueLimit = queueLimit
        }

        var queuedJobs: Int {
            condition.lock()
            defer { condition.unlock() }
            return jobs.count
        }

        /// Queues `job` unless as many are already waiting for a thread as the limit allows.
        func enqueue(_ job: @escaping @Sendable () -> Void) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            guard jobs.count < queueLimit + idleThreads, !isStopping else { return false }
            jobs.append(job)
            condition.signal()
            return true
        }

        func serve() {
            while let job = next() { job() }
        }

        private func next() -> (@Sendable () -> Void)? {
            condition.lock()
            defer { condition.unlock() }
            while jobs.isEmpty && !isStopping {
                idleThreads += 1
                condition.wait()
                idleThreads -= 1
            }
            return isStopping ? nil : jobs.removeFirst()
        }

        /// Lets the threads end. No job is left: each ``WorkerPool/run(_:)`` keeps its pool alive.
        func stop() {
            condition.lock()
            isStopping = true
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// The ``WorkerPool`` is busy and its queue is full: try again in a moment (503).
public struct WorkerPoolFull: LocalizedResponseError {
    public var status: HTTPResponse.Status { .serviceUnavailable }
    public func publicMessage(in language: Language) -> String { Messages.errorBusy.string(in: language) }
    public var headers: HTTPFields { [.retryAfter: "1"] }
}
