import Logging

/// What one daemon's callbacks share: the server's ``ServerCore``, the loop the daemon runs on,
/// and the state only that loop touches.
///
/// Each daemon's callbacks get their own context as their `cls` pointer, so a request finds its
/// loop's suspensions, deadlines and request ids without a lock or a thread-local: libmicrohttpd
/// calls a daemon's callbacks on its loop only, and a caller on another thread hops there.
final class DaemonContext: @unchecked Sendable {
    // @unchecked: `suspensions`, the deadlines, `requestIDs` and `runRequested` are touched on
    // `loop`'s thread only; every method that may be called elsewhere hops to it.
    let core: ServerCore
    let loop: EventLoop
    var suspensions = Suspensions()
    /// The connections on this loop that wait for Swift code (``WaitingConnection``).
    let answerDeadlines: DeadlineList
    /// The connections on this loop that wait for a request head (``OpenConnection``).
    let headDeadlines: DeadlineList
    var requestIDs = RequestIDGenerator()
    /// A connection was resumed since the daemon last ran: a daemon in external mode has no
    /// channel of its own to learn of a resume, and would leave the answer unsent until its
    /// next event.
    var runRequested = false

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
        runRequested = true
    }
}
