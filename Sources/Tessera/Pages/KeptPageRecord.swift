import Synchronization

/// What a kept page's render for nobody reports back to ``KeptPages``: the topics the page, the
/// layout and every region declared, or `nil` when one of them declared nothing or a region
/// failed, so that the copy is not kept.
final class KeptPageRecord: Sendable {
    private let reported = Mutex<[Topic]?>(nil)

    var topics: [Topic]? { reported.withLock { $0 } }

    func report(_ topics: [Topic]?) {
        reported.withLock { $0 = topics }
    }
}
