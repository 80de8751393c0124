import Crypto
import Foundation
import Tessera
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
        shelf = PhotoShelf(keeping: store.isOnlyWriter)
    }

    /// Adds the uploaded `file` to the product's photos. Throws ``ImageError`` (a 415 or 422)
    /// for anything that is not a whole JPEG, PNG or WebP image of at most 40 megapixels.
    @discardableResult
    public func add(_ file: UploadedFile, to productID: Int) async throws -> ProductPhoto {
        _ = try await catalog.product(id: productID)
        return try await add(file.contents, to: productID)
    }

    /// The first photo's links of each of these products that has one, for the pages that show
    /// them: from memory, read once per product until its photos change.
    func pictures(of productIDs: [Int]) async throws -> [Int: PhotoLinks] {
        let store = self.store
        return try await shelf.links(of: productIDs) { try await store.photos(of: $0) }
    }

    /// Follows the photo changes every instance makes, so that what ``pictures(of:)`` keeps
    /// stays true; run beside the server (``CatalogChangesFollower``) until cancelled.
    public func followChanges() async {
        let shelf = self.shelf
        await store.followChanges(started: { shelf.startKeeping() }, changed: { shelf.invalidate($0) }, interrupted: { shelf.stopKeeping() })
    }

    /// One variant's bytes, for `/photos/…`. A demo photo's variant that the seed did not draw
    /// (``DemoPhotos/drawnWhenAsked``, or a seed cut short) is drawn now, then kept like any other.
    public func variant(_ name: PhotoVariantName) async throws -> StoredVariant? {
        if let stored = try await store.variant(name) { return stored }
        // Only a demo photo some product lists: anyone may ask, so nothing else is ever drawn.
        guard let productID = Self.demoProductID(name.fingerprint), Self.demoFingerprint(productID) == name.fingerprint,
              try await store.hasPhoto(productID: productID, fingerprint: name.fingerprint) else { return nil }
        let source = RequestBody.memory(try await drawDemoPhoto(productID))
        let encoded = try await images.variant(of: source, width: name.width, format: name.format, quality: Self.quality(of: name.format))
        try await store.addVariant(name, bytes: encoded.bytes)
        return .bytes(encoded.bytes)
    }

    /// Gives each of these products that has no photo a demo photo: a gradient in colours of its
    /// own, drawn by libvips, so the demo shop has pictures and nothing is downloaded. With
    /// ``DemoPhotos/drawnAtSeed`` every variant is drawn and stored now, each photo drawn once;
    /// with ``DemoPhotos/drawnWhenAsked`` only the photo is listed, and each variant is drawn
    /// when a page first asks for it.
    public func addDemoPhotos(for productIDs: [Int], _ demoPhotos: DemoPhotos) async throws {
        let existing = try await store.photos(of: productIDs)
        for id in productIDs where existing[id] == nil {
            let photo = ProductPhoto(productID: id, fingerprint: Self.demoFingerprint(id), width: Self.demoSize.width, height: Self.demoSize.height)
            try await store.add(photo, variants: [:])
            shelf.invalidate(id)
        }
        guard demoPhotos == .drawnAtSeed else { return }
        let listed = try await store.photos(of: productIDs)
        let demos = productIDs.compactMap { id in listed[id]?.first { $0.fingerprint == Self.demoFingerprint(id) } }
        // One after another: libvips is only ever called from one thread of ours.
        for photo in demos {
            try await drawMissingVariants(of: photo)
        }
    }

    /// Draws a demo photo once and encodes the variants it lacks.
    private func drawMissingVariants(of photo: ProductPhoto) async throws {
        let names = ProductPhoto.widths.flatMap { width in VariantFormat.allCases.map { photo.variant(width: width, format: $0) } }
        let missing = try await store.missingVariants(among: names)
        guard !missing.isEmpty else { return }
        let source = RequestBody.memory(try await drawDemoPhoto(photo.productID))
        for name in names where missing.contains(name) {
            let encoded = try await images.variant(of: source, width: name.width, format: name.format, quality: Self.quality(of: name.format))
            try await store.addVariant(name, bytes: encoded.bytes)
        }
    }

    /// The encoder's quality for a format: WebP at 75 looks as good as JPEG at 80, and is smaller.
    static func quality(of format: VariantFormat) -> Int {
        format == .webp ? 75 : 80
    }

    static let demoSize = (width: 1280, height: 960)

    /// A demo photo's fingerprint: `de30` and the product's number in hex. What it draws follows
    /// from the number alone, so the name still names the content.
    static func demoFingerprint(_ productID: Int) -> String {
        "de30" + String(String(productID, radix: 16).suffix(12)).leftPadding(to: 12)
    }

    static func demoProductID(_ fingerprint: String) -> Int? {
        guard fingerprint.hasPrefix("de30") else { return nil }
        return Int(fingerprint.dropFirst(4), radix: 16)
    }

    private func drawDemoPhoto(_ productID: Int) async throws -> [UInt8] {
        let hue = Double((productID * 47) % 360)
        return try await images.demoPhoto(width: Self.demoSize.width, height: Self.demoSize.height, from: Self.rgb(hue: hue, lightness: 0.35),
                                          to: Self.rgb(hue: hue + 40, lightness: 0.75), disc: Self.rgb(hue: hue + 180, lightness: 0.9))
    }

    private func add(_ source: RequestBody, to productID: Int) async throws -> ProductPhoto {
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
        let photo = ProductPhoto(productID: productID, fingerprint: try Self.fingerprint(of: source),
                                 width: largest?.width ?? 0, height: largest?.height ?? 0)
        let named = Dictionary(uniqueKeysWithValues: variants.map { (photo.variant(width: $0.key.width, format: $0.key.format), $0.value) })
        try await store.add(photo, variants: named)
        shelf.invalidate(productID)
        topics.publish([CatalogTopics.product(productID)])
        return photo
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

    /// A colour of `hue` (degrees) at `lightness` (0–1), saturated, as 0xRRGGBB.
    static func rgb(hue: Double, lightness: Double) -> UInt32 {
        let h = hue.truncatingRemainder(dividingBy: 360) / 60
        let chroma = (1 - abs(2 * lightness - 1)) * 0.65
        let x = chroma * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) = switch Int(h) {
        case 0: (chroma, x, 0)
        case 1: (x, chroma, 0)
        case 2: (0, chroma, x)
        case 3: (0, x, chroma)
        case 4: (x, 0, chroma)
        default: (chroma, 0, x)
        }
        let m = lightness - chroma / 2
        func byte(_ value: Double) -> UInt32 { UInt32(max(0, min(255, ((value + m) * 255).rounded()))) }
        return byte(r) << 16 | byte(g) << 8 | byte(b)
    }
}

extension String {
    fileprivate func leftPadding(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
