import CTesseraLoop
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One thread that waits on epoll and runs everything its connections need: the file
/// descriptors registered with it (a libmicrohttpd daemon, PostgreSQL sockets), and the Swift
/// jobs of the tasks that prefer it as their executor.
///
/// A request's task starts on its daemon's loop and keeps it as its preferred executor, so every
/// continuation (a database answer, a region's render) resumes on the thread that took the
/// request: the request never changes threads, and a job enqueued from the loop itself costs an
/// append to an array, no system call. Work from another thread (a password hash, a timer) is
/// handed over through a lock and an `eventfd`.
public final class EventLoop: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs`, `running`, `handlers`, `freeTokens`, `timers` and `locals` are touched on the
    // loop's own thread only; what another thread may touch is atomic or behind `incoming`'s lock.

    /// The loop's position in its group, for logs and metrics.
    public let index: Int
    private let epoll: Int32
    private let wakeup: Int32
    private let thread = Atomic<UInt>(0)
    private let stopping = Atomic<Bool>(false)
    private let wakeupPending = Atomic<Bool>(false)
    /// Jobs from other threads, and whether the loop has ended (its late jobs then run on the
    /// global executor: a task that outlives its server still finishes).
    private let incoming = Mutex<(jobs: [UnownedJob], ended: Bool)>(([], false))
    private var jobs: [UnownedJob] = []
    private var running: [UnownedJob] = []
    private var handlers: [Handler?] = []
    private var freeTokens: [Int] = []
    /// The loop's timers (``schedule(after:repeating:_:)``).
    private var timers = LoopTimers()
    /// Each ``LoopLocal``'s value for this loop, by the `LoopLocal`'s identity.
    private var locals: [ObjectIdentifier: LocalValue] = [:]

    /// A loop-local value, with its owner held weakly: an owner that has gone leaves its
    /// identity free for a new object, which must not be handed the old one's value.
    private struct LocalValue {
        weak var owner: AnyObject?
        let value: AnyObject
    }

    /// A registered file descriptor: what it calls with the epoll events it got.
    private struct Handler {
        let descriptor: Int32
        let readiness: (IOEvents) -> Void
    }

    /// What a descriptor waits for, and what it got: epoll's bits.
    public struct IOEvents: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let readable = IOEvents(rawValue: EPOLLIN.rawValue)
        public static let writable = IOEvents(rawValue: EPOLLOUT.rawValue)
        /// The socket failed, or its peer hung up: reading says which.
        public static let failed = IOEvents(rawValue: EPOLLERR.rawValue | EPOLLHUP.rawValue)
    }

    /// A descriptor's registration with its loop, to modify or end it.
    public struct Registration: Sendable, Hashable {
        fileprivate let token: Int
    }

    init(index: Int) {
        self.index = index
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeup = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        precondition(epoll >= 0 && wakeup >= 0, "an event loop needs an epoll instance and an eventfd")
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data(u64: UInt64.max))
        epoll_ctl(epoll, EPOLL_CTL_ADD, wakeup, &event)
    }

    deinit {
        close(epoll)
        close(wakeup)
    }

    // MARK: Which loop

    /// Whether the caller runs on this loop's thread.
    public var inEventLoop: Bool {
        thread.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// The loop whose thread the caller is on; `nil` on any other thread.
    public static var current: EventLoop? {
        guard let pointer = pthread_getspecific(currentKey) else { return nil }
        return Unmanaged<EventLoop>.fromOpaque(pointer).takeUnretainedValue()
    }

    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    // MARK: Running work

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if inEventLoop {
            jobs.append(job)
            return
        }
        let accepted = incoming.withLock { incoming in
            if !incoming.ended { incoming.jobs.append(job) }
            return !incoming.ended
        }
        if accepted {
            wake()
        } else {
            globalConcurrentExecutor.enqueue(job)
        }
    }

    /// Runs `body` on the loop's thread: at once when the caller is on it, else as soon as the
    /// loop gets to it.
    public func execute(_ body: @escaping @Sendable () -> Void) {
        if inEventLoop { return body() }
        Task(executorPreference: self) { body() }
    }

    /// Runs `body` on the loop's thread and returns what it returned.
    public func submit<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            execute { continuation.resume(returning: body()) }
        }
    }

    // MARK: File descriptors

    /// Calls `readiness` on the loop's thread with the epoll events `descriptor` gets, until
    /// ``deregister(_:)``. What waits for time as well (libmicrohttpd's connection timeouts, a
    /// statement's) sets a timer (``schedule(after:repeating:_:)``): the loop asks nobody for
    /// deadlines before it waits. On the loop's thread only; the descriptor stays the caller's.
    public func register(_ descriptor: Int32, events: IOEvents, readiness: @escaping (IOEvents) -> Void) -> Registration {
        precondition(inEventLoop, "a descriptor is registered on its loop's thread")
        let handler = Handler(descriptor: descriptor, readiness: readiness)
        let token: Int
        if let free = freeTokens.popLast() {
            token = free
            handlers[token] = handler
        } else {
            token = handlers.count
            handlers.append(handler)
        }
        var event = epoll_event(events: events.rawValue, data: epoll_data(u64: UInt64(token)))
        let status = epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event)
        precondition(status == 0, "epoll_ctl(ADD) failed: \(errno)")
        return Registration(token: token)
    }

    /// Changes the events a registration waits for. On the loop's thread only.
    ///
    /// A descriptor closed and opened again under the same number (libpq trying a connection's
    /// next address) has left epoll with the old one: it is added anew.
    public func modify(_ registration: Registration, events: IOEvents) {
        guard let handler = handlers[registration.token] else { return }
        var event = epoll_event(events: events.rawValue, data: epoll_data(u64: UInt64(registration.token)))
        if epoll_ctl(epoll, EPOLL_CTL_MOD, handler.descriptor, &event) != 0, errno == ENOENT {
            let status = epoll_ctl(epoll, EPOLL_CTL_ADD, handler.descriptor, &event)
            precondition(status == 0, "epoll_ctl(ADD) failed: \(errno)")
        }
    }

    /// Ends a registration; the descriptor stays open. On the loop's thread only.
    public func deregister(_ registration: Registration) {
        let token = registration.token
        guard let handler = handlers[token] else { return }
        epoll_ctl(epoll, EPOLL_CTL_DEL, handler.descriptor, nil)
        handlers[token] = nil
        freeTokens.append(token)
    }

    // MARK: Timers

    /// Calls `body` on the loop's thread once `delay` has passed, and then every `interval` when
    /// one is given, until ``cancel(_:)``. The loop's own clock: what needs time on this loop
    /// waits here, not in a task that sleeps, so a loop with nothing to do sleeps in `epoll_wait`
    /// alone and allocates nothing. On the loop's thread only.
    public func schedule(after delay: Duration, repeating interval: Duration? = nil, _ body: @escaping () -> Void) -> LoopTimer {
        precondition(inEventLoop, "a timer is scheduled on its loop's thread")
        return timers.schedule(at: MonotonicClock.nanoseconds() + delay.loopNanoseconds, repeating: interval?.loopNanoseconds, body)
    }

    /// Stops a timer; it is not called again. On the loop's thread only.
    public func cancel(_ timer: LoopTimer) {
        precondition(inEventLoop, "a timer is cancelled on its loop's thread")
        timers.cancel(timer)
    }

    // MARK: Loop-local values

    /// The value this loop keeps for the ``LoopLocal`` `owner`, made on first use. On the
    /// loop's thread only.
    func localValue<Value: AnyObject>(for owner: AnyObject, orMake make: () -> Value) -> Value {
        let key = ObjectIdentifier(owner)
        if let kept = locals[key], kept.owner === owner { return unsafeDowncast(kept.value, to: Value.self) }
        let value = make()
        locals[key] = LocalValue(owner: owner, value: value)
        return value
    }

    // MARK: The loop

    /// Jobs run in one turn of the loop, at most, before it looks at its descriptors and
    /// timers again: tasks that keep waking each other cannot starve the sockets. (SwiftNIO's
    /// loop has the same bound.) Checked between batches: a batch already taken runs whole.
    static let jobsPerTick = 4096

    /// Runs on the calling thread until ``stop()``.
    func run() {
        thread.store(UInt(pthread_self()), ordering: .relaxed)
        pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
        let executor = asUnownedTaskExecutor()
        let capacity = 64
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
        defer { events.deallocate() }
        while true {
            // The jobs queued so far, and those they queue in turn, up to the tick's budget.
            takeIncoming()
            var ran = 0
            while !jobs.isEmpty, ran < Self.jobsPerTick {
                swap(&jobs, &running)
                for job in running { job.runSynchronously(on: executor) }
                ran += running.count
                running.removeAll(keepingCapacity: true)
                takeIncoming()
            }
            if stopping.load(ordering: .sequentiallyConsistent) { break }
            // Timers that have come.
            let now = MonotonicClock.nanoseconds()
            while let timer = timers.nextDue(now: now) { timer() }
            // Jobs still queued (past the budget, or from a timer) run after a look at the
            // descriptors that does not wait.
            let timeout = jobs.isEmpty ? timers.millisecondsToNext(now: MonotonicClock.nanoseconds()) : 0
            let count = epoll_wait(epoll, events, Int32(capacity), timeout)
            guard count >= 0 else {
                precondition(errno == EINTR, "epoll_wait failed: \(errno)")
                continue
            }
            for index in 0..<Int(count) {
                let event = events[index]
                let token = event.data.u64
                if token == UInt64.max {
                    var value: UInt64 = 0
                    _ = read(wakeup, &value, 8)
                    wakeupPending.store(false, ordering: .sequentiallyConsistent)
                } else if Int(token) < handlers.count, let handler = handlers[Int(token)] {
                    handler.readiness(IOEvents(rawValue: event.events))
                }
            }
        }
        pthread_setspecific(Self.currentKey, nil)
        thread.store(0, ordering: .relaxed)
        let late = incoming.withLock { incoming in
            incoming.ended = true
            return incoming.jobs
        }
        for job in jobs + late { globalConcurrentExecutor.enqueue(job) }
        jobs = []
    }

    private func takeIncoming() {
        let taken = incoming.withLock { queued -> [UnownedJob] in
            guard !queued.jobs.isEmpty else { return [] }
            defer { queued.jobs.removeAll(keepingCapacity: true) }
            return queued.jobs
        }
        if !taken.isEmpty { jobs.append(contentsOf: taken) }
    }

    /// Ends the loop's wait, from another thread.
    func wake() {
        guard !wakeupPending.exchange(true, ordering: .sequentiallyConsistent) else { return }
        var one: UInt64 = 1
        _ = write(wakeup, &one, 8)
    }

    /// Ends ``run()`` once the jobs queued so far have run.
    func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        if !inEventLoop { wake() }
    }
}
