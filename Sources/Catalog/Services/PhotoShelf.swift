import Tessera

/// The first photo of each product a page asked for, with its links made once: what pages show,
/// kept in memory so that a product page reads no more than it did before it had photos.
///
/// Reading the photo list for every page cost the product page half its requests per second
/// (SQLite's read lock, rows, an SQL text per call, `srcset` strings built per render: see
/// BENCHMARKS.md). Photos change only when staff upload one, so the shelf keeps what it read,
/// product by product (a product without photos too), and drops a product when its
/// ``photos(_:)`` topic is published, on this instance or, over the topic bus, on another. It is
/// a ``TopicCache``, as the catalog's summary and the shared regions are: a read stores what it
/// found only if no change was heard since before it began, and nothing is kept while changes
/// cannot be heard. It holds at most ``limit`` products, the oldest going first, so a
/// crawl through 100,000 products cannot grow it without bound.
final class PhotoShelf: Sendable {
    /// What each product's shelved links are filed under: published when its photos change.
    static let photos = TopicFamily<Int>("product-photos")
    static let limit = 20_000
    /// By product: its first photo's links, or `nil` for a product without photos.
    private let cache: TopicCache<Int, PhotoLinks?>

    /// A shelf that hears its topics through `topics`.
    init(topics: any TopicPublisher) {
        cache = TopicCache(limits: .init(maxCost: Self.limit))
        topics.follow(cache)
    }

    /// The first photo of each of `productIDs` that has one: from the shelf, and through `load`
    /// (one read for all the products not shelved) for the rest.
    func links(of productIDs: [Int], load: ([Int]) async throws -> [Int: [ProductPhoto]]) async rethrows -> [Int: PhotoLinks] {
        let generation = cache.generation
        var found: [Int: PhotoLinks] = [:]
        var missing: [Int] = []
        for id in productIDs {
            if let shelved = cache.value(for: id) {
                if let links = shelved { found[id] = links }
            } else {
                missing.append(id)
            }
        }
        guard !missing.isEmpty else { return found }
        let loaded = try await load(missing)
        for id in missing {
            let links = loaded[id]?.first.map(PhotoLinks.init)
            cache.store(links, for: id, until: [Self.photos(id)], since: generation)
            if let links { found[id] = links }
        }
        return found
    }
}
