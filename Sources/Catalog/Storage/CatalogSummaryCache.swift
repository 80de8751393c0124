import GRDB
import Synchronization
import Tessera

/// What every listing needs and writes almost never change: the categories, and how many
/// products each one has.
struct CatalogSummary: Sendable {
    var categories: [Category]
    var productCounts: [Int: Int]
    var productCount: Int

    /// How many products a listing of `categoryID` (or of everything, for `nil`) has.
    func count(in categoryID: Int?) -> Int {
        categoryID.map { productCounts[$0] ?? 0 } ?? productCount
    }
}

/// The ``CatalogSummary``, read once and kept until a committed write changes it.
///
/// Counting a large catalog for every listing page was that page's biggest cost at 100,000
/// products, and reading the categories was a third of a small one's. The cache ends when
/// ``topic`` is published, over the app's one ``TopicPublisher``, by a commit that adds or
/// removes a product, moves one to another category, or touches a category; the next reader
/// fills it again. Stock and price updates, which every checkout makes, leave it alone. On
/// SQLite the writer's transactions are watched (a GRDB `TransactionObserver`) and publish it; on
/// PostgreSQL, where other instances write too, triggers announce it on the topic bus's channel
/// (``PostgresTopicBus``), so every instance hears it, and nothing is kept while the bus cannot
/// hear.
///
/// A reader stores what it read only if the topic was not published since before its read
/// began (``generation``, taken before the read), so that a value read from a snapshot older
/// than the last commit is never kept. Another process writing the SQLite file (the `sqlite3`
/// shell) is not seen.
final class CatalogSummaryCache: Sendable {
    /// The one key's topic: what ends the kept summary.
    static let topic = Topic(name: "catalog-summary")
    private let cache = TopicCache<Int, CatalogSummary>()
    private let topics: any TopicPublisher
    /// Whether the writer's open transaction has changed the summary (SQLite).
    private let pendingChange = Mutex(false)

    /// A cache that hears ``topic`` through `topics`.
    init(topics: any TopicPublisher) {
        self.topics = topics
        topics.follow(cache)
    }

    /// The summary when one is kept: a caller that finds it needs no read at all.
    var kept: CatalogSummary? { cache.value(for: 0) }

    /// Which commits the cache has seen; take it before starting the read that may fill it.
    var generation: TopicCache<Int, CatalogSummary>.Generation { cache.generation }

    /// The summary, read through `load` when none is kept; kept only if no commit changed it
    /// since `generation` was taken.
    func summary(
        since generation: TopicCache<Int, CatalogSummary>.Generation, load: () async throws -> CatalogSummary
    ) async rethrows -> CatalogSummary {
        if let kept { return kept }
        let summary = try await load()
        cache.store(summary, for: 0, until: [Self.topic], since: generation)
        return summary
    }

    /// `summary(since:load:)` for a synchronous read (SQLite's, inside its read).
    func summary(since generation: TopicCache<Int, CatalogSummary>.Generation, load: () throws -> CatalogSummary) rethrows -> CatalogSummary {
        if let kept { return kept }
        let summary = try load()
        cache.store(summary, for: 0, until: [Self.topic], since: generation)
        return summary
    }

    /// A commit changed the summary: tells every instance, this one first.
    func publishChange() {
        topics.publish([Self.topic])
    }
}

extension CatalogSummaryCache: TransactionObserver {
    // Called on the SQLite writer's queue.

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        switch eventKind {
        case .insert(let table), .delete(let table):
            return table == "product" || table == "category"
        case .update(let table, let columns):
            return table == "category" || (table == "product" && columns.contains("categoryID"))
        }
    }

    func databaseDidChange(with event: DatabaseEvent) {
        pendingChange.withLock { $0 = true }
        // One change is enough to know; a seed of 100,000 products need not call again.
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidCommit(_ db: Database) {
        let changed = pendingChange.withLock { pending in
            defer { pending = false }
            return pending
        }
        if changed { publishChange() }
    }

    func databaseDidRollback(_ db: Database) {
        pendingChange.withLock { $0 = false }
    }
}
