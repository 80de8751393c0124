import Synchronization

/// The subscribers of one instance, indexed by topic, and the per-client count of streams.
final class LiveHub: Sendable {
    private struct State {
        var subscribers: [ObjectIdentifier: LiveSubscriber] = [:]
        var byTopic: [Topic: Set<ObjectIdentifier>] = [:]
        /// Subscribers whose first renders are running: they hear every topic.
        var discovering: Set<ObjectIdentifier> = []
        /// Each client's streams, oldest first.
        var streamsPerClient: [String: [ObjectIdentifier]] = [:]
        var isClosed = false
    }

    private let state = Mutex(State())
    /// Signalled when a stream opens on a hub that had none: the heartbeat sleeps on it, so an
    /// instance with no streams open does nothing at all.
    let firstStream = WakeSignal()

    /// Open streams.
    var count: Int {
        state.withLock { $0.subscribers.count }
    }

    /// Adds a subscriber that hears every topic until ``subscribe(_:)``. When its client already
    /// holds `limit` streams, the oldest of them is closed (``LiveSubscriber/evict()``): a browser
    /// that moved on from a page leaves its stream open until the server next writes to it, so the
    /// oldest stream is the likeliest to be nobody's. `false` after ``close()``.
    func add(_ subscriber: LiveSubscriber, limit: Int) -> Bool {
        let (evicted, first): (LiveSubscriber?, Bool) = state.withLock { state in
            guard !state.isClosed else { return (nil, false) }
            let id = ObjectIdentifier(subscriber)
            let first = state.subscribers.isEmpty
            state.subscribers[id] = subscriber
            state.discovering.insert(id)
            state.streamsPerClient[subscriber.client, default: []].append(id)
            guard state.streamsPerClient[subscriber.client]!.count > limit else { return (nil, first) }
            let oldest = state.streamsPerClient[subscriber.client]!.removeFirst()
            return (state.subscribers[oldest], first)
        }
        if first { firstStream.signal() }
        evicted?.evict()
        return state.withLock { $0.subscribers[ObjectIdentifier(subscriber)] != nil }
    }

    /// Files the subscriber under the topics its regions depend on now, replacing earlier ones.
    func subscribe(_ subscriber: LiveSubscriber) {
        let topics = subscriber.topics
        state.withLock { state in
            let id = ObjectIdentifier(subscriber)
            guard state.subscribers[id] != nil else { return }
            state.discovering.remove(id)
            Self.unindex(id, from: &state)
            for topic in topics { state.byTopic[topic, default: []].insert(id) }
        }
        subscriber.finishDiscovery()
    }

    func remove(_ subscriber: LiveSubscriber) {
        state.withLock { state in
            let id = ObjectIdentifier(subscriber)
            state.subscribers[id] = nil
            state.discovering.remove(id)
            Self.unindex(id, from: &state)
            state.streamsPerClient[subscriber.client]?.removeAll { $0 == id }
            if state.streamsPerClient[subscriber.client]?.isEmpty == true { state.streamsPerClient[subscriber.client] = nil }
        }
    }

    private static func unindex(_ id: ObjectIdentifier, from state: inout State) {
        for topic in Array(state.byTopic.keys) where state.byTopic[topic]!.contains(id) {
            state.byTopic[topic]!.remove(id)
            if state.byTopic[topic]!.isEmpty { state.byTopic[topic] = nil }
        }
    }

    /// Tells the subscribers of `topics` (and those still discovering) that they changed.
    func deliver(_ topics: [Topic]) {
        let listeners: [LiveSubscriber] = state.withLock { state in
            state.discovering.union(Topic.listeners(of: topics, in: state.byTopic)).compactMap { state.subscribers[$0] }
        }
        for subscriber in listeners { subscriber.changed(topics) }
    }

    /// A heartbeat for every stream; with `refresh`, every region is rendered again too.
    func beat(refresh: Bool) {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) {
            if refresh { subscriber.refreshAll() }
            subscriber.beat()
        }
    }

    /// Every region of every stream rendered again: a change may have been missed.
    func refreshAll() {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) { subscriber.refreshAll() }
    }

    /// Ends every stream and refuses new ones: the server is shutting down.
    func close() {
        let all: [LiveSubscriber] = state.withLock { state in
            state.isClosed = true
            return Array(state.subscribers.values)
        }
        for subscriber in all { subscriber.close() }
    }
}
