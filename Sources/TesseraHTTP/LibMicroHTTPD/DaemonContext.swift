import CTesseraShim
import Logging

/// What one daemon's callbacks share: the server's ``ServerCore``, the loop the daemon runs on,
/// and the state only that loop touches.
///
/// Each daemon's callbacks get their own context as their `cls` pointer, so a request finds its
/// loop's suspensions, deadlines and request ids without a lock or a thread-local: libmicrohttpd
/// calls a daemon's callbacks on its loop only, and a caller on another thread hops there.
final class DaemonContext: @unchecked Sendable {
    // @unchecked: `suspensions`, the deadlines, `requestIDs`, `handle` and the timer are
    // touched on `loop`'s thread only; every method that may be called elsewhere hops to it.
    let core: ServerCore
    let loop: EventLoop
    var suspensions = Suspensions()
    /// The connections on this loop that wait for Swift code (``WaitingConnection``).
    let answerDeadlines: DeadlineList
    /// The connections on this loop that wait for a request head (``OpenConnection``).
    let headDeadlines: DeadlineList
    var requestIDs = RequestIDGenerator()
    /// The daemon, while it runs on the loop (``attach(_:)``).
    private var handle: OpaquePointer?
    /// The timer for the daemon's next timeout, and when it is due (the monotonic clock).
    private var runTimer: (timer: LoopTimer, at: Int64)?
    /// Set while the daemon is to run once the loop's jobs are done (``runSoon()``).
    private var soonTimer: LoopTimer?
    /// Made once, so that setting the timers again allocates nothing. Weak, as the deadline
    /// lists' timers are: a context that has gone leaves its timers nothing to do on the loop,
    /// which runs on for other daemons.
    private lazy var runWhenDue: () -> Void = { [weak self] in
        guard let self else { return }
        self.runTimer = nil
        self.run()
    }
    private lazy var runNow: () -> Void = { [weak self] in
        guard let self else { return }
        self.soonTimer = nil
        self.run()
    }

    init(core: ServerCore, loop: EventLoop) {
        self.core = core
        self.loop = loop
        self.answerDeadlines = DeadlineList(loop: loop, patience: core.limits.responseTimeout)
        let (logger, headTimeout) = (core.logger, core.limits.headTimeout)
        self.headDeadlines = DeadlineList(loop: loop, patience: headTimeout) { cut in
            logger.notice(
                "cut off connections that did not send a request head in time", metadata: ["count": "\(cut)", "headTimeout": "\(headTimeout)"])
        }
    }

    /// Ends `entry`'s wait and resumes its connection, whose answer is queued. From any thread:
    /// on another one, it happens on the loop (an answer from a task that left its loop).
    func resume(_ connection: OpaquePointer, endingWaitOf entry: (any WaitingConnection)?) {
        guard loop.inEventLoop else {
            nonisolated(unsafe) let entry = entry
            nonisolated(unsafe) let connection = connection
            return loop.execute { self.resume(connection, endingWaitOf: entry) }
        }
        if let entry { answerDeadlines.remove(entry) }
        suspensions.resume(connection)
        // A daemon in external mode has no channel of its own to learn of a resume, and would
        // leave the answer unsent until its next event.
        runSoon()
    }

    // MARK: Running the daemon

    /// The daemon runs on the loop from now on: when its epoll instance has work, and when the
    /// timer says (its connections' timeouts, a resume).
    func attach(_ handle: OpaquePointer) {
        self.handle = handle
        runSoon()
    }

    /// The daemon no longer runs; its timer is cancelled.
    func detach() {
        handle = nil
        if let runTimer { loop.cancel(runTimer.timer) }
        runTimer = nil
        if let soonTimer { loop.cancel(soonTimer) }
        soonTimer = nil
    }

    /// Does what the daemon's sockets and connections ask for, then sets the timer for its next
    /// timeout. libmicrohttpd's timeout only changes when it runs, so it is asked here, not
    /// before every wait of the loop.
    func run() {
        guard let handle else { return }
        tessera_mhd_run(handle)
        let milliseconds = tessera_mhd_timeout_ms(handle)
        guard milliseconds > 0 else { return milliseconds == 0 ? runSoon() : () }
        setRunTimer(at: MonotonicClock.nanoseconds() + Int64(milliseconds) * 1_000_000)
    }

    /// Runs the daemon once the loop's jobs are done, in this turn of the loop, without moving
    /// its timeout's timer: that is what a resume asks for, once per answer.
    private func runSoon() {
        guard handle != nil, soonTimer == nil else { return }
        soonTimer = loop.schedule(after: .zero, runNow)
    }

    /// Sets the timer for `at`, unless it is set for then or sooner already: a timer that comes
    /// too early only runs the daemon once more, which then sets it for its real timeout.
    private func setRunTimer(at: Int64) {
        guard handle != nil else { return }
        if let runTimer {
            guard at < runTimer.at else { return }
            loop.cancel(runTimer.timer)
        }
        let wait = max(0, at - MonotonicClock.nanoseconds())
        runTimer = (loop.schedule(after: .nanoseconds(wait), runWhenDue), at)
    }
}
