/// The one way changes travel: a service publishes the topics a committed change touched, and
/// every page open on a region that depends on one, and every cache that keeps something filed
/// under one, hears it, on this instance and on the others. No cache has a channel of its own.
///
/// Publish *after* the transaction commits, never inside it: a subscriber re-renders at once,
/// and must read the new state, not the old one. Publishing is cheap and never waits.
public protocol TopicPublisher: Sendable {
    /// Tells every subscriber of `topics` that they changed.
    func publish(_ topics: [Topic])

    /// Tells `follower` (a ``TopicCache``) of every topic published from now on, here and on the
    /// other instances, and when publications may go unheard, so that it keeps nothing then.
    func follow(_ follower: some TopicFollower)
}

extension TopicPublisher {
    /// Tells every subscriber of `topics` that they changed.
    public func publish(_ topics: Topic...) {
        publish(topics)
    }
}
