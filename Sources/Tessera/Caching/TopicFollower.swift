/// What hears published topics, and whether they can be heard: a ``TopicCache``. ``LiveRegions``
/// tells its followers what this instance and, through its bus, the others publish.
public protocol TopicFollower: AnyObject, Sendable {
    /// `topics` were published.
    func invalidate(_ topics: [Topic])
    /// Publications may go unheard from now on.
    func stopKeeping()
    /// Publications are heard again.
    func startKeeping()
}
