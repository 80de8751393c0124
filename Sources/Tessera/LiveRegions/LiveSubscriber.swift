import Synchronization

/// One open stream: the regions it watches, which of them must be rendered again, and the
/// signal that wakes its loop.
///
/// Work is kept as a set of region indices, never as fragments: however many changes arrive
/// while the client reads slowly, the stream renders each dirty region once, at its newest
/// state. That is what bounds a slow subscriber's memory.
final class LiveSubscriber: Sendable {
    struct Work {
        var dirty: Set<Int> = []
        var heartbeat = false
        var isEmpty: Bool { dirty.isEmpty && !heartbeat }
    }

    private struct State {
        var work = Work()
        /// The topics each region depends on, from its last render.
        var topics: [[Topic]]
        /// While the first renders run, every topic changed anywhere; `nil` afterwards.
        var changedWhileDiscovering: Set<Topic>? = []
        var isEvicted = false
    }

    /// The client's key for the per-client cap.
    let client: String
    let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let state: Mutex<State>

    init(client: String, regionCount: Int) {
        self.client = client
        self.state = Mutex(State(topics: Array(repeating: [], count: regionCount)))
        (wakes, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Every topic any region depends on.
    var topics: Set<Topic> {
        state.withLock { Set($0.topics.joined()) }
    }

    /// Records the topics region `index` depends on, after it rendered.
    func setTopics(_ topics: [Topic], ofRegion index: Int) {
        state.withLock { $0.topics[index] = topics }
    }

    /// Ends discovery: a region whose topic changed while the first renders ran is marked dirty,
    /// since its render may have read the state from before the change.
    func finishDiscovery() {
        let missed: Bool = state.withLock { state in
            guard let changed = state.changedWhileDiscovering else { return false }
            state.changedWhileDiscovering = nil
            for (index, topics) in state.topics.enumerated() where topics.contains(where: changed.contains) {
                state.work.dirty.insert(index)
            }
            return !state.work.dirty.isEmpty
        }
        if missed { wake.yield() }
    }

    /// Marks the regions that depend on any of `topics` for rendering again.
    func changed(_ topics: [Topic]) {
        let marked: Bool = state.withLock { state in
            if state.changedWhileDiscovering != nil {
                state.changedWhileDiscovering!.formUnion(topics)
                return false
            }
            var marked = false
            for (index, dependsOn) in state.topics.enumerated() where dependsOn.contains(where: topics.contains) {
                state.work.dirty.insert(index)
                marked = true
            }
            return marked
        }
        if marked { wake.yield() }
    }

    /// Marks every region: after a missed notification may have happened (a bus reconnected), or
    /// as the periodic check that no page stays stale for good.
    func refreshAll() {
        state.withLock { state in state.work.dirty.formUnion(state.topics.indices) }
        wake.yield()
    }

    /// Asks for a heartbeat, unless an event goes out anyway.
    func beat() {
        state.withLock { $0.work.heartbeat = true }
        wake.yield()
    }

    /// What the loop must do now, leaving nothing behind.
    func takeWork() -> Work {
        state.withLock { state in
            defer { state.work = Work() }
            return state.work
        }
    }

    /// Ends the stream: its loop finishes after the work in hand.
    func close() {
        wake.finish()
    }

    /// Ends the stream to make room for a newer one of the same client, telling it so.
    func evict() {
        state.withLock { $0.isEvicted = true }
        wake.finish()
    }

    /// Whether the stream was ended for a newer one (``evict()``).
    var isEvicted: Bool {
        state.withLock { $0.isEvicted }
    }
}
