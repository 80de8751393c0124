import Crypto
import Foundation
public import Tessera
import TesseraImages

/// Product photos: staff upload them, pages show them. An upload is checked by its bytes and
/// its header (``ImageProcessor``), then turned into six variants that carry no metadata; the
/// original is not kept. Nothing is stored when any step refuses. Adding a photo publishes the
/// product's topic, so open product pages show it at once.
public struct PhotoService: Sendable {
    let store: any PhotoStore
    /// libvips's one thread in this process.
    let images = ImageProcessor.shared
    let catalog: CatalogService
    let topics: any TopicPublisher
    /// What pages show, kept in memory: see ``PhotoShelf``.
    let shelf: PhotoShelf

    public init(store: any PhotoStore, catalog: CatalogService, topics: any TopicPublisher) {
        self.store = store
        self.catalog = catalog
        self.topics = topics
        shelf = PhotoShelf(topics: topics)
    }

    /// Adds the uploaded `file` to the product's photos. Throws ``ImageError`` (a 415 or 422)
    /// for anything that is not a whole JPEG, PNG or WebP image of at most 40 megapixels.
    @discardableResult
    public func add(_ file: UploadedFile, to productID: Int, within budget: DatabaseBudget) async throws -> ProductPhoto {
        try await add(file.contents, to: productID, within: budget)
    }

    /// Adds the photo in `source` (an upload's contents, or an image the seed painted) to the
    /// product's photos: checked, made into its six variants, stored, and published.
    @discardableResult
    public func add(_ source: RequestBody, to productID: Int, within budget: DatabaseBudget) async throws -> ProductPhoto {
        _ = try await catalog.product(id: productID, within: budget)
        _ = try await images.inspect(source)
        var variants: [PhotoVariantName: [UInt8]] = [:]
        var largest: ImageProcessor.Encoded?
        for width in ProductPhoto.widths {
            for format in VariantFormat.allCases {
                let encoded = try await images.variant(of: source, width: width, format: format, quality: Self.quality(of: format))
                variants[PhotoVariantName(fingerprint: "", width: width, format: format)] = encoded.bytes
                if width == ProductPhoto.widths.last { largest = encoded }
            }
        }
        let photo = ProductPhoto(
            productID: productID, fingerprint: try Self.fingerprint(of: source),
            width: largest?.width ?? 0, height: largest?.height ?? 0)
        let named = Dictionary(uniqueKeysWithValues: variants.map { (photo.variant(width: $0.key.width, format: $0.key.format), $0.value) })
        try await store.add(photo, variants: named, within: budget)
        topics.publish([CatalogTopics.product(productID), PhotoShelf.photos(productID)])
        return photo
    }

    /// The first photo's links of each of these products that has one, for the pages that show
    /// them: from memory, read once per product until its photos change.
    func pictures(of productIDs: [Int], within budget: DatabaseBudget) async throws -> [Int: PhotoLinks] {
        let store = self.store
        return try await shelf.links(of: productIDs) { try await store.photos(of: $0, within: budget) }
    }

    /// One variant's bytes, for `/photos/…`; `nil` when no photo has it. Nothing is drawn here:
    /// a GET only reads what an upload or the seed stored.
    public func variant(_ name: PhotoVariantName, within budget: DatabaseBudget) async throws -> StoredVariant? {
        try await store.variant(name, within: budget)
    }

    /// The photos of these products, newest first for each: what the seed asks before it adds one.
    public func photos(of productIDs: [Int], within budget: DatabaseBudget) async throws -> [Int: [ProductPhoto]] {
        try await store.photos(of: productIDs, within: budget)
    }

    /// The encoder's quality for a format: WebP at 75 looks as good as JPEG at 80, and is smaller.
    static func quality(of format: VariantFormat) -> Int {
        format == .webp ? 75 : 80
    }

    /// The first 16 hex digits of the file's SHA-256, read in pieces.
    static func fingerprint(of file: RequestBody) throws -> String {
        var hash = SHA256()
        var offset = 0
        while offset < file.count {
            let piece = try file.read(at: offset, count: 1 << 16)
            hash.update(data: piece)
            offset += piece.count
        }
        return hash.finalize().prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}
