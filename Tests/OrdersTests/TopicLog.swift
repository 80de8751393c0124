import Synchronization
import Tessera

/// The topics the services published, in order, and what a check saw at each publish: the
/// services' side of live regions, observed without a server.
final class TopicLog: TopicPublisher {
    private let entries = Mutex<[[Topic]]>([])
    private let check = Mutex<(@Sendable ([Topic]) -> Void)?>(nil)
    private let followers = Mutex<[any TopicFollower]>([])

    func publish(_ topics: [Topic]) {
        entries.withLock { $0.append(topics) }
        for follower in followers.withLock({ $0 }) { follower.invalidate(topics) }
        check.withLock { $0 }?(topics)
    }

    /// The services' caches hear what is published, as with ``LiveRegions`` in one process.
    func follow(_ follower: some TopicFollower) {
        followers.withLock { $0.append(follower) }
    }

    /// Everything published so far.
    var published: [[Topic]] { entries.withLock { $0 } }

    /// Runs `inspect` at each publish, synchronously, before the service goes on: what it reads
    /// then is what a subscriber re-rendering at once would read.
    func onPublish(_ inspect: @escaping @Sendable ([Topic]) -> Void) {
        check.withLock { $0 = inspect }
    }
}
