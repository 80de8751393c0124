import CTesseraLoop
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One ``EventLoop`` per core, each on a thread of its own, for the life of the process or of a
/// server: the HTTP server runs a libmicrohttpd daemon on each, and the PostgreSQL pool keeps
/// each loop's connections on it, so that a request and its queries share a thread.
///
/// An app that uses both passes the same group to both; a server given none makes its own.
public final class EventLoops: Sendable {
    /// The number of cores the process may run on: the default loop count.
    public static var processorCount: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// The loops, one per thread.
    public let loops: [EventLoop]
    private let threads: [pthread_t]
    private let nextIndex = Atomic<Int>(0)
    private let isShutDown = Atomic<Bool>(false)

    /// Starts `count` loops (one per core by default), each on a new thread.
    public init(count: Int = EventLoops.processorCount) {
        precondition(count > 0, "a group holds at least one loop")
        loops = (0..<count).map { EventLoop(index: $0) }
        threads = loops.map { loop in
            let box = Unmanaged.passRetained(loop).toOpaque()
            var thread = pthread_t()
            let status = pthread_create(
                &thread, nil,
                { box in
                    let loop = Unmanaged<EventLoop>.fromOpaque(box!).takeRetainedValue()
                    tessera_name_thread("tessera-loop-\(loop.index)")
                    loop.run()
                    return nil
                }, box)
            precondition(status == 0, "pthread_create failed: \(status)")
            return thread
        }
    }

    /// A loop for work that arrives from outside any loop (a background job, a migration),
    /// taken in turn.
    public func next() -> EventLoop {
        loops[nextIndex.add(1, ordering: .relaxed).oldValue % loops.count]
    }

    /// The caller's loop when it runs on one of these, else the next in turn.
    public func currentOrNext() -> EventLoop {
        if let current = EventLoop.current, loops.contains(where: { $0 === current }) { return current }
        return next()
    }

    /// Stops every loop once its queued jobs have run, and returns when their threads have ended.
    /// Never from one of the loops: a loop cannot wait for its own thread.
    public func shutdown() async {
        guard !isShutDown.exchange(true, ordering: .relaxed) else { return }
        precondition(
            EventLoop.current.map { current in !loops.contains { $0 === current } } ?? true,
            "a loop cannot wait for its own thread")
        for loop in loops { loop.stop() }
        // Joined on a thread of its own: a join would hold a thread of the cooperative pool.
        let threads = self.threads
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let request = Unmanaged.passRetained(JoinRequest(threads: threads, done: done)).toOpaque()
            var joiner = pthread_t()
            pthread_create(
                &joiner, nil,
                { request in
                    let request = Unmanaged<JoinRequest>.fromOpaque(request!).takeRetainedValue()
                    for thread in request.threads { pthread_join(thread, nil) }
                    request.done.resume()
                    return nil
                }, request)
            pthread_detach(joiner)
        }
    }

    private final class JoinRequest: Sendable {
        let threads: [pthread_t]
        let done: CheckedContinuation<Void, Never>
        init(threads: [pthread_t], done: CheckedContinuation<Void, Never>) {
            self.threads = threads
            self.done = done
        }
    }
}
