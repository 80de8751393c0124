/// Something suspended on a connection, waiting for Swift code, that can be cut short.
protocol WaitingConnection: AnyObject {
    /// Its place in its loop's ``AnswerDeadlines``; only that list touches it.
    var waitingLinks: WaitingLinks { get set }
    /// Answers (or ends) the connection now, because its deadline passed or the server is stopping.
    func expire(reason: HTTPError)
}

/// A ``WaitingConnection``'s links in its loop's list, kept in the connection itself so that
/// joining and leaving the list allocate nothing.
struct WaitingLinks {
    fileprivate var older: (any WaitingConnection)?
    fileprivate var newer: (any WaitingConnection)?
    /// When it joined, on the monotonic clock in nanoseconds.
    fileprivate var since: Int64 = 0
    fileprivate var isLinked = false
}

/// The connections on one loop that wait for Swift code (a handler, or a streamed body's
/// producer), oldest first: libmicrohttpd never times a suspended connection out, so we do.
///
/// Every one has the same patience (``HTTPServerLimits/responseTimeout``), so the order of
/// joining is the order of deadlines: joining and leaving are O(1), and the loop keeps a single
/// timer, at the oldest one's deadline. That is h2o's timeout list, and it replaces a sweep of
/// every waiting connection under a lock. Touched on its loop's thread only.
final class AnswerDeadlines {
    private let loop: EventLoop
    private let patience: Int64
    private var oldest: (any WaitingConnection)?
    private var newest: (any WaitingConnection)?
    private var timer: LoopTimer?
    /// Made once, so that arming the timer again allocates nothing.
    private lazy var expireDue: () -> Void = { [unowned self] in
        self.timer = nil
        self.expire(before: MonotonicClock.nanoseconds() - self.patience + 1, reason: HTTPError(.tooSlow))
        self.arm()
    }

    init(loop: EventLoop, patience: Duration) {
        self.loop = loop
        self.patience = patience.loopNanoseconds
    }

    var isEmpty: Bool { oldest == nil }

    /// Starts `entry`'s wait; it must not be waiting already.
    func insert(_ entry: any WaitingConnection) {
        precondition(!entry.waitingLinks.isLinked, "a connection waits once at a time")
        entry.waitingLinks = WaitingLinks(older: newest, newer: nil, since: MonotonicClock.nanoseconds(), isLinked: true)
        if let newest { newest.waitingLinks.newer = entry } else { oldest = entry }
        newest = entry
        if timer == nil { arm() }
    }

    /// Ends `entry`'s wait; nothing when it is not waiting (it expired, or was never inserted).
    func remove(_ entry: any WaitingConnection) {
        guard entry.waitingLinks.isLinked else { return }
        let links = entry.waitingLinks
        entry.waitingLinks = WaitingLinks()
        if let older = links.older { older.waitingLinks.newer = links.newer } else { oldest = links.newer }
        if let newer = links.newer { newer.waitingLinks.older = links.older } else { newest = links.older }
    }

    /// Expires every waiting connection (the server is stopping), and returns how many there were.
    func expireAll(reason: HTTPError) -> Int {
        expire(before: .max, reason: reason)
    }

    /// Expires, oldest first, those that joined before `cutoff`.
    @discardableResult
    private func expire(before cutoff: Int64, reason: HTTPError) -> Int {
        var count = 0
        while let entry = oldest, entry.waitingLinks.since < cutoff {
            remove(entry)
            entry.expire(reason: reason)
            count += 1
        }
        return count
    }

    /// The timer at the oldest one's deadline. A connection that leaves before it does not move
    /// it: the timer then finds nothing due, and is set for the next oldest.
    private func arm() {
        guard timer == nil, let oldest else { return }
        let wait = max(0, oldest.waitingLinks.since + patience - MonotonicClock.nanoseconds())
        timer = loop.schedule(after: .nanoseconds(wait), expireDue)
    }
}
