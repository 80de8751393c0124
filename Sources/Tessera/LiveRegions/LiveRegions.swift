public import Logging
public import ServiceLifecycle
import Synchronization
import Tracing

/// Live regions: a region whose model changes is rendered again in every page open on it, and
/// sent down one server-sent-events stream per page.
///
/// A region controller declares the topics its model depends on (``RegionController/topics``);
/// a service publishes the topics it changed once its transaction commits (``publish(_:)``). Each
/// open page's stream then asks the region's own URL again with that visitor's request (cookies
/// and all), so the region is rendered by its own child controller, with the same
/// authorization as the page; the fragment goes down the stream only when it differs from what
/// the page shows.
///
/// It is a `Service`: run it next to the HTTP server (``ApplicationRunner`` does) for heartbeats,
/// the bus, and a shutdown that ends every stream at once, so a drain does not wait for them.
public final class LiveRegions: TopicPublisher, Service {
    /// The limits and rhythms of the streams.
    public struct Configuration: Sendable {
        /// How often an idle stream gets a comment line, so that proxies and the server's own idle
        /// and response timeouts never see it silent: keep it below both.
        public var heartbeat: Duration
        /// Every this many heartbeats, each open region is rendered again even without a change:
        /// a notification missed for any reason never leaves a page stale for good.
        public var heartbeatsPerRefresh: Int
        /// Streams one client address may hold at once; a new one past it closes the client's
        /// oldest (likely a page it left). Browsers open one per tab.
        ///
        /// Zero turns live regions off on this instance, for an operator whose proxy cannot
        /// stream or who sheds load: its pages are plain (no versions, no stream element) and
        /// its stream URL is a 404, while what its services publish still reaches the other
        /// instances' pages through the bus.
        public var maxStreamsPerClient: Int
        /// Regions one stream may watch; a page has a handful.
        public var maxRegionsPerStream: Int

        /// The defaults: a heartbeat every 10 s, a full refresh every minute, 16 streams per
        /// client address (0: none, live regions off), 16 regions per stream.
        public init(
            heartbeat: Duration = .seconds(10), heartbeatsPerRefresh: Int = 6,
            maxStreamsPerClient: Int = 16, maxRegionsPerStream: Int = 16
        ) {
            self.heartbeat = heartbeat
            self.heartbeatsPerRefresh = max(1, heartbeatsPerRefresh)
            self.maxStreamsPerClient = max(0, maxStreamsPerClient)
            self.maxRegionsPerStream = maxRegionsPerStream
        }
    }

    /// Where pages' streams are served.
    public static let streamPath = "/_live"

    public let configuration: Configuration

    /// Whether this instance serves streams: pages mark their live regions only when it does.
    public var servesStreams: Bool { configuration.maxStreamsPerClient > 0 }
    let hub = LiveHub()
    /// What keeps values until topics are published (the app's ``RegionCache``, a store's
    /// caches), told of every topic published here and on the bus; and whether the bus hears.
    private let followers = Mutex<(all: [any TopicFollower], bus: BusState)>(([], .notListening))

    private enum BusState { case notListening, hearing }
    private let bus: (any TopicBus)?
    private let outbox: AsyncStream<[Topic]>.Continuation
    private let outgoing: AsyncStream<[Topic]>
    private let logger: Logger
    private let app = Mutex(WeakApplication())

    /// Live regions within this process, or across instances through `bus`.
    public init(configuration: Configuration = Configuration(), bus: (any TopicBus)? = nil, logger: Logger = Logger(label: "tessera.live")) {
        self.configuration = configuration
        self.bus = bus
        self.logger = logger
        (outgoing, outbox) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Tells `follower` of every topic published from now on, here and, through the bus, on the
    /// other instances. With a bus, the others' changes are heard only once it listens: the
    /// follower keeps nothing until then, nor while the bus is interrupted. Follow before
    /// ``run()`` starts (``ApplicationBuilder/build(layout:middleware:routeMiddleware:logger:developmentMode:)``
    /// does): an instance with no streams and no followers then does not listen at all.
    public func follow(_ follower: some TopicFollower) {
        let hearing = followers.withLock { followers in
            if !followers.all.contains(where: { $0 === follower }) { followers.all.append(follower) }
            return followers.bus == .hearing
        }
        if bus != nil && !hearing { follower.stopKeeping() }
    }

    private var currentFollowers: [any TopicFollower] { followers.withLock { $0.all } }

    /// Open streams on this instance.
    public var openStreams: Int { hub.count }

    /// Tells every page open on a region that depends on one of `topics`, here and on the other
    /// instances. Call it after the change is committed.
    /// In a traced request it is a span of its own, with the topics.
    public func publish(_ topics: [Topic]) {
        guard !topics.isEmpty else { return }
        RequestTracing.withChildSpan("live.publish") { span in
            span?.attributes["tessera.topics"] = topics.map(\.name).joined(separator: " ")
            for follower in currentFollowers { follower.invalidate(topics) }
            hub.deliver(topics)
            if bus != nil { outbox.yield(topics) }
        }
    }

    /// Heartbeats and the bus until a graceful shutdown, then ends every stream.
    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.beat() }
            if let bus {
                group.addTask {
                    for await topics in self.outgoing { await bus.send(topics) }
                }
                // An instance with no streams and nothing kept has nobody to tell: it only sends.
                if servesStreams || !currentFollowers.isEmpty {
                    let hub = self.hub
                    group.addTask {
                        await bus.listen(
                            deliver: { topics in
                                for follower in self.currentFollowers { follower.invalidate(topics) }
                                hub.deliver(topics)
                            },
                            resynchronize: {
                                for follower in self.hearing(.hearing) { follower.startKeeping() }
                                hub.refreshAll()
                            },
                            interrupted: { for follower in self.hearing(.notListening) { follower.stopKeeping() } }
                        )
                    }
                }
            }
            try? await gracefulShutdown()
            self.logger.notice("closing live streams", metadata: ["streams": "\(self.hub.count)"])
            self.hub.close()
            self.outbox.finish()
            group.cancelAll()
        }
    }

    /// Records whether the bus hears, and returns the followers to tell.
    private func hearing(_ state: BusState) -> [any TopicFollower] {
        followers.withLock { followers in
            followers.bus = state
            return followers.all
        }
    }

    /// Heartbeats while streams are open; with none, it sleeps until the first one opens.
    private func beat() async {
        var count = 0
        while !Task.isCancelled {
            if hub.count == 0 {
                _ = await hub.firstStream.wait()
                continue
            }
            try? await Task.sleep(for: configuration.heartbeat)
            guard !Task.isCancelled else { return }
            count += 1
            hub.beat(refresh: count % configuration.heartbeatsPerRefresh == 0)
        }
    }

    // MARK: The app these streams render through

    func bind(_ application: Application) {
        app.withLock { $0.value = application }
    }

    var application: Application? {
        app.withLock { $0.value }
    }

    private struct WeakApplication {
        weak var value: Application?
    }
}
