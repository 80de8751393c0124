import Synchronization

/// What a kept page's render for nobody reports back to ``KeptPages``: the topics the page, the
/// layout and every region declared, or `nil` when one of them declared nothing or a region
/// failed, so that the copy is not kept.
/// It also says which route the page is, for the compression dictionary, which takes one page
/// of each.
final class KeptPageRecord: Sendable {
    private let reported = Mutex<(topics: [Topic]?, route: String?)>((nil, nil))

    var topics: [Topic]? { reported.withLock { $0.topics } }
    var route: String? { reported.withLock { $0.route } }

    func report(_ topics: [Topic]?, route: String?) {
        reported.withLock { $0 = (topics, route) }
    }
}
