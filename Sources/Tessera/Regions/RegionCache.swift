import Synchronization
import TesseraViews

/// The fragments of shared regions (``RegionCaching/shared(_:until:)``), kept per language
/// until a topic they depend on is published, they grow old, or room is needed.
///
/// ``LiveRegions`` owns it, since it hears every topic: those this instance's services publish,
/// and those of the other instances through the ``TopicBus``. While the bus is not listening a
/// change could go unheard, so nothing is kept (`stopKeeping()`), and what was kept is dropped
/// when it listens again. A fragment is stored only if no topic was published since before its
/// render began (`generation`): a render that read the old state while a change committed is
/// not kept. A change the app does not publish (a hand-made database edit) shows within
/// ``Configuration/maxAge``.
public final class RegionCache: Sendable {
    /// How much is kept, and for how long.
    public struct Configuration: Sendable {
        /// The bytes of HTML kept at most; the oldest fragments go first past it. Zero keeps
        /// nothing: every region renders for every request.
        public var maxBytes: Int
        /// The longest a fragment is kept, however quiet its topics: the bound on how stale a
        /// change that was never published leaves a page.
        public var maxAge: Duration

        /// 8 MB of fragments (a thousand product regions in two languages), for a minute each.
        public init(maxBytes: Int = 8 << 20, maxAge: Duration = .seconds(60)) {
            self.maxBytes = max(0, maxBytes)
            self.maxAge = maxAge
        }
    }

    private struct Entry {
        let html: HTMLOutput
        let topics: [Topic]
        let storedAt: ContinuousClock.Instant
        let size: Int
        /// Tells this entry from an earlier one under the same key in ``State/arrivals``.
        let serial: Int
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var byTopic: [Topic: Set<String>] = [:]
        /// Keys in the order they were stored, oldest from `head`: who goes first when room is
        /// needed. A key replaced or dropped since is skipped by its serial.
        var arrivals: [(key: String, serial: Int)] = []
        var head = 0
        var serial = 0
        var size = 0
        var generation = 0
        var keeps: Bool
    }

    /// How much it keeps and for how long; a `maxBytes` of zero turns it off.
    public let configuration: Configuration
    private let state: Mutex<State>

    /// A cache with `configuration`; `keeping` false when its topics come from a listener that
    /// has not started yet.
    public init(configuration: Configuration = Configuration(), keeping: Bool = true) {
        self.configuration = configuration
        self.state = Mutex(State(keeps: keeping))
    }

    /// Fragments kept now.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Arrivals waiting in the eviction queue, kept or not: bounded by the kept ones (tests).
    var queuedArrivals: Int { state.withLock { $0.arrivals.count - $0.head } }

    /// Which publications the cache has seen; take it before the render that may fill it.
    var generation: Int { state.withLock { $0.generation } }

    /// The fragment kept under `key`, if one is, and young enough.
    func fragment(for key: String) -> HTMLOutput? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            guard now - entry.storedAt < configuration.maxAge else {
                Self.remove(key, from: &state)
                return nil
            }
            return entry.html
        }
    }

    /// Keeps `html` under `key` until one of `topics` is published, unless a topic was
    /// published since `generation` was taken or the cache is not keeping.
    func store(_ html: HTMLOutput, for key: String, topics: [Topic], since generation: Int) {
        let size = html.bytes.count + key.utf8.count + 64
        // One fragment may take an eighth of the room: a huge one would push out many others.
        guard size <= configuration.maxBytes / 8 else { return }
        // A copy of its own size: a view's output reserves more than it writes.
        var kept = html.emptyCopy(capacity: html.bytes.count)
        kept.write(html)
        let now = ContinuousClock.now
        state.withLock { state in
            guard state.keeps, state.generation == generation else { return }
            Self.remove(key, from: &state)
            state.serial += 1
            state.entries[key] = Entry(html: kept, topics: topics, storedAt: now, size: size, serial: state.serial)
            for topic in topics { state.byTopic[topic, default: []].insert(key) }
            state.arrivals.append((key, state.serial))
            state.size += size
            while state.size > configuration.maxBytes, state.head < state.arrivals.count {
                let oldest = state.arrivals[state.head]
                state.head += 1
                if state.entries[oldest.key]?.serial == oldest.serial { Self.remove(oldest.key, from: &state) }
            }
            // Keys replaced or dropped leave their arrival behind: once those outnumber the
            // kept ones, only the kept ones' stay.
            if state.arrivals.count - state.head > 2 * state.entries.count + 64 {
                state.arrivals = state.arrivals[state.head...].filter { state.entries[$0.key]?.serial == $0.serial }
                state.head = 0
            }
        }
    }

    /// `topics` changed: drops every fragment that depends on one of them. A key's topic also
    /// ends the fragments that depend on its whole family (``TopicFamily/any``); a family's
    /// topic ends those of every key in it.
    public func invalidate(_ topics: [Topic]) {
        state.withLock { state in
            state.generation += 1
            for key in Topic.listeners(of: topics, in: state.byTopic) { Self.remove(key, from: &state) }
        }
    }

    /// Changes may go unheard from now on (the bus lost its connection): drops everything and
    /// keeps nothing until ``startKeeping()``.
    func stopKeeping() {
        reset(keeping: false)
    }

    /// Changes are heard again: what was kept before may be stale, what renders from now on
    /// may be kept.
    func startKeeping() {
        reset(keeping: true)
    }

    private func reset(keeping: Bool) {
        state.withLock { state in
            let generation = state.generation
            state = State(keeps: keeping)
            state.generation = generation + 1
        }
    }

    private static func remove(_ key: String, from state: inout State) {
        guard let entry = state.entries.removeValue(forKey: key) else { return }
        state.size -= entry.size
        for topic in entry.topics {
            state.byTopic[topic]?.remove(key)
            if state.byTopic[topic]?.isEmpty == true { state.byTopic[topic] = nil }
        }
    }
}
