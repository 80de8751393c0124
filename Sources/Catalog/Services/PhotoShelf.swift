import Synchronization

/// The first photo of each product a page asked for, with its links made once: what pages show,
/// kept in memory so that a product page reads no more than it did before it had photos.
///
/// Reading the photo list for every page cost the product page half its requests per second
/// (SQLite's read lock, rows, an SQL text per call, `srcset` strings built per render: see
/// BENCHMARKS.md). Photos change only when staff upload one, so the shelf keeps what it read,
/// product by product (a product without photos too), and drops a product when its photos
/// change: in this process at once, and on PostgreSQL when another instance's `NOTIFY` says so.
/// Like ``CatalogSummaryCache``, a read stores what it found only if no change was heard since
/// before it began, and nothing is kept while changes cannot be heard.
///
/// It holds at most ``limit`` products and starts over when full: a shop's popular pages refill
/// it within seconds, and a crawl through 100,000 products cannot grow it without bound.
final class PhotoShelf: Sendable {
    private struct State {
        /// By product: its first photo's links, or `nil` for a product without photos.
        var shelved: [Int: PhotoLinks?] = [:]
        /// Bumped by every change heard.
        var generation = 0
        var keeps: Bool
    }

    static let limit = 20_000
    private let state: Mutex<State>

    /// - Parameter keeping: whether to keep from the start: yes when every change is made by
    ///   this process (SQLite); a shelf that hears changes from a listener starts when it listens.
    init(keeping: Bool) {
        state = Mutex(State(keeps: keeping))
    }

    /// The first photo of each of `productIDs` that has one: from the shelf, and through `load`
    /// (one read for all the products not shelved) for the rest.
    func links(of productIDs: [Int], load: ([Int]) async throws -> [Int: [ProductPhoto]]) async rethrows -> [Int: PhotoLinks] {
        var found: [Int: PhotoLinks] = [:]
        var missing: [Int] = []
        let generation = state.withLock { state in
            for id in productIDs {
                if let shelved = state.shelved[id] {
                    if let links = shelved { found[id] = links }
                } else {
                    missing.append(id)
                }
            }
            return state.generation
        }
        guard !missing.isEmpty else { return found }
        let loaded = try await load(missing)
        var read: [Int: PhotoLinks?] = [:]
        for id in missing {
            let links = loaded[id]?.first.map(PhotoLinks.init)
            read[id] = .some(links)
            if let links { found[id] = links }
        }
        state.withLock { state in
            guard state.keeps, state.generation == generation else { return }
            if state.shelved.count + read.count > Self.limit { state.shelved = [:] }
            state.shelved.merge(read) { _, new in new }
        }
        return found
    }

    /// A product's photos changed: read them again next time.
    func invalidate(_ productID: Int) {
        state.withLock { state in
            state.generation += 1
            state.shelved[productID] = nil
        }
    }

    /// Changes are heard from now on (a listener started): keep again, from empty, since some
    /// may have gone by unheard.
    func startKeeping() {
        state.withLock { state in
            state.generation += 1
            state.shelved = [:]
            state.keeps = true
        }
    }

    /// Changes can no longer be heard: keep nothing until they can.
    func stopKeeping() {
        state.withLock { state in
            state.generation += 1
            state.shelved = [:]
            state.keeps = false
        }
    }
}
