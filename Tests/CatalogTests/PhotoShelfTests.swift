import Synchronization
import Tessera
import Testing

@testable import Catalog

/// The photos pages show, kept in memory: read once per product, read again after its topic is
/// published, never kept from a read that a change overtook, nor while changes cannot be heard.
@Suite struct PhotoShelfTests {
    static func photo(_ productID: Int, _ fingerprint: String = "00000000000000aa") -> ProductPhoto {
        ProductPhoto(productID: productID, fingerprint: fingerprint, width: 1280, height: 960)
    }

    /// A store stand-in that counts reads: the shelf's contract is with a closure, not a store.
    final class Reads: Sendable {
        let asked = Mutex<[[Int]]>([])
        let photos: [Int: [ProductPhoto]]
        init(_ photos: [Int: [ProductPhoto]]) { self.photos = photos }
        func load(_ ids: [Int]) -> [Int: [ProductPhoto]] {
            asked.withLock { $0.append(ids) }
            return photos.filter { ids.contains($0.key) }
        }
        var count: Int { asked.withLock { $0.count } }
    }

    @Test func eachProductIsReadOnceWithItsLinksMadeOnce() async {
        let shelf = PhotoShelf(topics: LiveRegions())
        let reads = Reads([1: [Self.photo(1, "00000000000000bb"), Self.photo(1)]])
        let first = await shelf.links(of: [1, 2]) { reads.load($0) }
        #expect(first[1] == PhotoLinks(Self.photo(1, "00000000000000bb")), "the newest photo leads")
        #expect(first[2] == nil, "a product without photos")
        #expect(first[1]?.webpSrcset.contains("/photos/00000000000000bb-320.webp 320w") == true)
        let again = await shelf.links(of: [2, 1]) { reads.load($0) }
        #expect(again == first)
        #expect(reads.count == 1, "both products, and the absence of a photo, are kept")
        _ = await shelf.links(of: [1, 3]) { reads.load($0) }
        #expect(reads.asked.withLock { $0.last } == [3], "only what is not kept is read")
    }

    @Test func aChangeIsReadAgainAndARaceIsNotKept() async {
        let live = LiveRegions()
        let shelf = PhotoShelf(topics: live)
        let reads = Reads([1: [Self.photo(1)]])
        _ = await shelf.links(of: [1]) { reads.load($0) }
        live.publish([CatalogTopics.product(1)])
        _ = await shelf.links(of: [1]) { reads.load($0) }
        #expect(reads.count == 1, "a change of stock or price leaves the photos")
        live.publish([PhotoShelf.photos(1)])
        _ = await shelf.links(of: [1]) { reads.load($0) }
        #expect(reads.count == 2)
        // A change heard while a read is under way: what that read found may be stale.
        live.publish([PhotoShelf.photos(1)])
        _ = await shelf.links(of: [1]) { ids in
            live.publish([PhotoShelf.photos(1)])
            return reads.load(ids)
        }
        _ = await shelf.links(of: [1]) { reads.load($0) }
        #expect(reads.count == 4, "the overtaken read was not kept")
    }

    /// A bus that never hears: another instance's changes would go unheard.
    struct DeafBus: TopicBus {
        func send(_ topics: [Topic]) async {}
        func listen(
            deliver: @escaping @Sendable ([Topic]) -> Void, resynchronize: @escaping @Sendable () -> Void,
            interrupted: @escaping @Sendable () -> Void
        ) async {}
    }

    @Test func nothingIsKeptWhileChangesCannotBeHeard() async {
        let shelf = PhotoShelf(topics: LiveRegions(bus: DeafBus()))
        let reads = Reads([1: [Self.photo(1)]])
        _ = await shelf.links(of: [1]) { reads.load($0) }
        _ = await shelf.links(of: [1]) { reads.load($0) }
        #expect(reads.count == 2, "the bus does not listen: another instance's upload would go unheard")
    }

    @Test func aFullShelfLetsItsOldestGo() async {
        let shelf = PhotoShelf(topics: LiveRegions())
        let reads = Reads([:])
        _ = await shelf.links(of: Array(1...PhotoShelf.limit)) { reads.load($0) }
        _ = await shelf.links(of: [1]) { reads.load($0) }
        #expect(reads.count == 1)
        _ = await shelf.links(of: [PhotoShelf.limit + 1]) { reads.load($0) }
        _ = await shelf.links(of: [2, PhotoShelf.limit]) { reads.load($0) }
        #expect(reads.count == 2, "the newer products stay")
        _ = await shelf.links(of: [1]) { reads.load($0) }
        #expect(reads.count == 3, "the oldest went to make room")
    }
}
