/// What a service tells once a change is committed: the topics it changed. Every page open on a
/// region that depends on one of them gets that region again, on this instance and on the others.
///
/// Publish *after* the transaction commits, never inside it: a subscriber re-renders at once,
/// and must read the new state, not the old one. Publishing is cheap and never waits.
public protocol TopicPublisher: Sendable {
    /// Tells every subscriber of `topics` that they changed.
    func publish(_ topics: [Topic])
}

extension TopicPublisher {
    /// Tells every subscriber of `topics` that they changed.
    public func publish(_ topics: Topic...) {
        publish(topics)
    }
}
