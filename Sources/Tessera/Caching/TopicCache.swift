import Synchronization

/// Values kept until a topic they depend on is published: the one way Tessera keeps what it read
/// or rendered (shared regions, an app's summaries and photo links) and stays true.
///
/// Three rules keep a cached value from outliving the truth:
/// - **Published topics end it.** ``invalidate(_:)`` drops every value filed under one of the
///   topics; a key's topic also ends values filed under its family's ``TopicFamily/any``, and a
///   family's topic ends every key of it.
/// - **A read that raced a change is not kept.** Take ``generation`` before reading what the
///   value is made from; ``store(_:for:until:since:)`` refuses it if anything was invalidated
///   since.
/// - **Nothing is kept while changes cannot be heard.** Whoever delivers the topics (``LiveRegions``
///   and its bus, a database listener) calls ``stopKeeping()`` when it loses them and
///   ``startKeeping()`` once it hears again; both drop everything.
///
/// It is bounded by ``Limits``: a total cost (bytes, or one per value), the oldest going first
/// when room is needed, and an age, the bound on a change nobody published.
public final class TopicCache<Key: Hashable & Sendable, Value: Sendable>: TopicFollower {
    /// How much is kept, and for how long.
    public struct Limits: Sendable {
        /// The total cost kept at most (see the cache's `cost`); zero keeps nothing.
        public var maxCost: Int
        /// The largest cost one value may have: a huge one would push out many others.
        public var maxEntryCost: Int
        /// The longest a value is kept, however quiet its topics; `nil` for no limit.
        public var maxAge: Duration?

        /// Up to `maxCost`, a value at most `maxEntryCost` (all of it by default), each kept at
        /// most `maxAge`.
        public init(maxCost: Int, maxEntryCost: Int? = nil, maxAge: Duration? = nil) {
            self.maxCost = max(0, maxCost)
            self.maxEntryCost = maxEntryCost ?? self.maxCost
            self.maxAge = maxAge
        }

        /// No bound: for a handful of values, such as one summary.
        public static var unbounded: Limits { Limits(maxCost: .max) }
    }

    /// Which invalidations the cache has seen: taken before a read, handed to ``store(_:for:until:since:)``.
    public struct Generation: Sendable, Equatable {
        fileprivate let count: Int
    }

    private struct Entry {
        let value: Value
        let topics: [Topic]
        let storedAt: ContinuousClock.Instant
        let cost: Int
        /// Tells this entry from an earlier one under the same key in ``State/arrivals``.
        let serial: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var byTopic: [Topic: Set<Key>] = [:]
        /// Keys in the order they were stored, oldest from `head`: who goes first when room is
        /// needed. A key replaced or dropped since is skipped by its serial.
        var arrivals: [(key: Key, serial: Int)] = []
        var head = 0
        var serial = 0
        var cost = 0
        var generation = 0
        var keeps: Bool
    }

    /// The bounds it was made with.
    public let limits: Limits
    private let cost: @Sendable (Key, Value) -> Int
    private let state: Mutex<State>

    /// A cache within `limits`, where each value costs `cost` (one by default); `keeping` false
    /// when its topics come from a listener that has not started yet.
    public init(limits: Limits = .unbounded, keeping: Bool = true, cost: @escaping @Sendable (Key, Value) -> Int = { _, _ in 1 }) {
        self.limits = limits
        self.cost = cost
        self.state = Mutex(State(keeps: keeping))
    }

    /// Whether it keeps anything at all: not with a `maxCost` of zero.
    public var isOn: Bool { limits.maxCost > 0 }

    /// Values kept now.
    public var count: Int { state.withLock { $0.entries.count } }

    /// The cost of the values kept now, never above ``Limits/maxCost``.
    var keptCost: Int { state.withLock { $0.cost } }

    /// Arrivals waiting in the eviction queue, kept or not: bounded by the kept ones (tests).
    var queuedArrivals: Int { state.withLock { $0.arrivals.count - $0.head } }

    /// Take it before reading what a value will be made of.
    public var generation: Generation { state.withLock { Generation(count: $0.generation) } }

    /// The value kept under `key`, if one is and it is young enough.
    public func value(for key: Key) -> Value? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            if let maxAge = limits.maxAge, now - entry.storedAt >= maxAge {
                Self.remove(key, from: &state)
                return nil
            }
            return entry.value
        }
    }

    /// Keeps `value` under `key` until one of `topics` is published, unless anything was
    /// invalidated since `generation` was taken, the cache is not keeping, or it is too large;
    /// whether it was kept.
    @discardableResult
    public func store(_ value: Value, for key: Key, until topics: [Topic], since generation: Generation) -> Bool {
        let cost = self.cost(key, value)
        guard cost <= limits.maxEntryCost, cost <= limits.maxCost else { return false }
        let now = ContinuousClock.now
        return state.withLock { state in
            guard state.keeps, state.generation == generation.count else { return false }
            Self.remove(key, from: &state)
            state.serial += 1
            state.entries[key] = Entry(value: value, topics: topics, storedAt: now, cost: cost, serial: state.serial)
            for topic in topics { state.byTopic[topic, default: []].insert(key) }
            state.arrivals.append((key, state.serial))
            state.cost += cost
            while state.cost > limits.maxCost, state.head < state.arrivals.count {
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
            return true
        }
    }

    /// `topics` changed: drops every value that depends on one of them.
    public func invalidate(_ topics: [Topic]) {
        state.withLock { state in
            state.generation += 1
            for key in Topic.listeners(of: topics, in: state.byTopic) { Self.remove(key, from: &state) }
        }
    }

    /// Changes may go unheard from now on: drops everything and keeps nothing until
    /// ``startKeeping()``.
    public func stopKeeping() {
        reset(keeping: false)
    }

    /// Changes are heard again: what was kept before may be stale; what is read from now on may
    /// be kept.
    public func startKeeping() {
        reset(keeping: true)
    }

    private func reset(keeping: Bool) {
        state.withLock { state in
            let generation = state.generation
            state = State(keeps: keeping)
            state.generation = generation + 1
        }
    }

    private static func remove(_ key: Key, from state: inout State) {
        guard let entry = state.entries.removeValue(forKey: key) else { return }
        state.cost -= entry.cost
        for topic in entry.topics {
            state.byTopic[topic]?.remove(key)
            if state.byTopic[topic]?.isEmpty == true { state.byTopic[topic] = nil }
        }
    }
}
