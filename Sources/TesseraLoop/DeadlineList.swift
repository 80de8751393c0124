/// Something that waits on a loop for a fixed time at most: a connection for its request head,
/// a request for its handler.
package protocol DeadlineListMember: AnyObject {
    /// Its place in its loop's ``DeadlineList``; only that list touches it.
    var deadlineLinks: DeadlineLinks { get set }
    /// Called on the loop, once the list has let go of it, when its time has passed.
    func deadlinePassed()
}

/// A member's links in its list, kept in the member itself so that joining and leaving the
/// list allocate nothing.
package struct DeadlineLinks {
    fileprivate var older: (any DeadlineListMember)?
    fileprivate var newer: (any DeadlineListMember)?
    /// When it joined, on the monotonic clock in nanoseconds.
    fileprivate var since: Int64 = 0
    fileprivate var isLinked = false

    package init() {}

    fileprivate init(older: (any DeadlineListMember)?, newer: (any DeadlineListMember)?, since: Int64, isLinked: Bool) {
        self.older = older
        self.newer = newer
        self.since = since
        self.isLinked = isLinked
    }
}

/// What waits on one loop with one fixed patience, oldest first, as h2o keeps its timeouts.
///
/// Every member has the same patience, so the order of joining is the order of deadlines:
/// joining and leaving are O(1), and the loop keeps a single timer, at the oldest member's
/// deadline. A member that leaves before then does not move the timer; it finds nothing due
/// and is set for the next oldest. Touched on its loop's thread only.
package final class DeadlineList {
    private let loop: EventLoop
    private let patience: Int64
    private let afterPassing: (Int) -> Void
    private var oldest: (any DeadlineListMember)?
    private var newest: (any DeadlineListMember)?
    private var timer: LoopTimer?
    /// Made once, so that setting the timer again allocates nothing. Weak: the list's owner (a
    /// daemon's context) may go while the timer is set and the loop runs on, so the timer must
    /// find nothing rather than a list that has gone.
    private lazy var passDue: () -> Void = { [weak self] in
        guard let self else { return }
        self.timer = nil
        let passed = self.pass(before: MonotonicClock.nanoseconds() - self.patience + 1)
        if passed > 0 { self.afterPassing(passed) }
        self.setTimer()
    }

    /// `afterPassing` is told how many members' time passed at once, after their
    /// ``DeadlineListMember/deadlinePassed()``: one log line for a burst.
    package init(loop: EventLoop, patience: Duration, afterPassing: @escaping (Int) -> Void = { _ in }) {
        self.loop = loop
        self.patience = patience.loopNanoseconds
        self.afterPassing = afterPassing
    }

    /// Starts `member`'s wait, or starts it again from now.
    package func insert(_ member: any DeadlineListMember) {
        remove(member)
        member.deadlineLinks = DeadlineLinks(older: newest, newer: nil, since: MonotonicClock.nanoseconds(), isLinked: true)
        if let newest { newest.deadlineLinks.newer = member } else { oldest = member }
        newest = member
        if timer == nil { setTimer() }
    }

    /// Ends `member`'s wait; nothing when it is not waiting.
    package func remove(_ member: any DeadlineListMember) {
        guard member.deadlineLinks.isLinked else { return }
        let links = member.deadlineLinks
        member.deadlineLinks = DeadlineLinks()
        if let older = links.older { older.deadlineLinks.newer = links.newer } else { oldest = links.newer }
        if let newer = links.newer { newer.deadlineLinks.older = links.older } else { newest = links.older }
    }

    /// Takes every member out, oldest first, and hands each to `body` (the server is stopping).
    /// Returns how many there were.
    package func removeAll(_ body: (any DeadlineListMember) -> Void) -> Int {
        var count = 0
        while let member = oldest {
            remove(member)
            body(member)
            count += 1
        }
        return count
    }

    /// Passes, oldest first, the members that joined before `cutoff`.
    private func pass(before cutoff: Int64) -> Int {
        var count = 0
        while let member = oldest, member.deadlineLinks.since < cutoff {
            remove(member)
            member.deadlinePassed()
            count += 1
        }
        return count
    }

    private func setTimer() {
        guard timer == nil, let oldest else { return }
        let wait = max(0, oldest.deadlineLinks.since + patience - MonotonicClock.nanoseconds())
        timer = loop.schedule(after: .nanoseconds(wait), passDue)
    }
}
