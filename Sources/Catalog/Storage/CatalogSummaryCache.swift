import GRDB
import Synchronization

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
/// products, and reading the categories was a third of a small one's. The cache is dropped by
/// a commit that adds or removes a product, moves one to another category, or touches a
/// category, and the next reader fills it again. Stock and price updates, which every checkout
/// makes, leave it alone. On SQLite it watches the writer's transactions (a GRDB
/// `TransactionObserver`); on PostgreSQL, where other instances write too, triggers announce
/// such commits with `NOTIFY` and every instance hears them (``invalidate()``), and it keeps
/// nothing while it cannot hear (``stopKeeping()``).
///
/// A reader stores what it read only if no such commit happened since before its read began
/// (``generation``, taken before the read), so that a value read from a snapshot older than
/// the last commit is never kept. Only commits through this process's writer, or announced,
/// are seen: another process writing the SQLite file (the `sqlite3` shell) is not.
final class CatalogSummaryCache: Sendable {
    private struct State {
        var summary: CatalogSummary?
        /// Bumped by every commit that changes the summary.
        var generation = 0
        /// Whether the writer's open transaction has changed the summary.
        var pendingChange = false
        /// Whether a summary read now may be kept: not while changes cannot be heard of.
        var keeps: Bool
    }

    private let state: Mutex<State>

    /// - Parameter keeping: whether to keep summaries from the start; a cache whose
    ///   invalidations come from a listener starts keeping once it listens.
    init(keeping: Bool = true) {
        state = Mutex(State(keeps: keeping))
    }

    /// The summary when one is kept: a caller that finds it needs no read at all.
    var kept: CatalogSummary? {
        state.withLock { $0.summary }
    }

    /// Which commits the cache has seen; take it before starting the read that may fill it.
    var generation: Int {
        state.withLock { $0.generation }
    }

    /// The summary, read through `load` when none is kept; kept only if no commit changed it
    /// since `generation` was taken.
    func summary(since generation: Int, load: () async throws -> CatalogSummary) async rethrows -> CatalogSummary {
        if let kept { return kept }
        let summary = try await load()
        keep(summary, since: generation)
        return summary
    }

    /// `summary(since:load:)` for a synchronous read (SQLite's, inside its read).
    func summary(since generation: Int, load: () throws -> CatalogSummary) rethrows -> CatalogSummary {
        if let kept { return kept }
        let summary = try load()
        keep(summary, since: generation)
        return summary
    }

    private func keep(_ summary: CatalogSummary, since generation: Int) {
        state.withLock { state in
            if state.keeps, state.generation == generation { state.summary = summary }
        }
    }

    /// A commit changed the summary: drop it.
    func invalidate() {
        state.withLock { state in
            state.generation += 1
            state.summary = nil
        }
    }

    /// Changes may go unheard from now on: keep nothing until ``startKeeping()``.
    func stopKeeping() {
        state.withLock { state in
            state.keeps = false
            state.generation += 1
            state.summary = nil
        }
    }

    /// Changes are heard again: what was kept before may be stale, what is read from now on
    /// may be kept.
    func startKeeping() {
        state.withLock { state in
            state.keeps = true
            state.generation += 1
            state.summary = nil
        }
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
        state.withLock { $0.pendingChange = true }
        // One change is enough to know; a seed of 100,000 products need not call again.
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidCommit(_ db: Database) {
        let changed = state.withLock { state in
            defer { state.pendingChange = false }
            return state.pendingChange
        }
        if changed { invalidate() }
    }

    func databaseDidRollback(_ db: Database) {
        state.withLock { $0.pendingChange = false }
    }
}
