public import Tessera
public import TesseraImages

/// A photo of a product, as pages show it: six variants (WebP and JPEG at three widths), named
/// by the fingerprint of the original, so each variant's URL names its content and can be kept
/// by any cache for good.
public struct ProductPhoto: Sendable, Equatable {
    public let productID: Int
    /// The first 16 hex digits of the original's SHA-256.
    public let fingerprint: String
    /// The size of the largest variant, upright: the photo's shape.
    public let width: Int
    public let height: Int

    /// The widths a `srcset` offers: a phone's card, a phone's page or a desktop card, a desktop page.
    public static let widths = [320, 640, 1280]

    public init(productID: Int, fingerprint: String, width: Int, height: Int) {
        self.productID = productID
        self.fingerprint = fingerprint
        self.width = width
        self.height = height
    }

    /// The variant at `width` (never wider than the photo itself) as `format`.
    public func variant(width: Int, format: VariantFormat) -> PhotoVariantName {
        PhotoVariantName(fingerprint: fingerprint, width: width, format: format)
    }

    /// Every variant: what an upload makes.
    public var variants: [PhotoVariantName] {
        Self.widths.flatMap { width in VariantFormat.allCases.map { variant(width: width, format: $0) } }
    }

    /// How wide the variant made for `width` really is: photos are never enlarged.
    public func actualWidth(_ width: Int) -> Int { min(width, self.width) }
}

/// A variant's file name, `3f9a1c0b7d2e4f61-640.webp`: the route's one parameter, so that any
/// other name is not a photo (404) before anything is looked up.
public struct PhotoVariantName: PathParameter, Hashable {
    public let fingerprint: String
    public let width: Int
    public let format: VariantFormat

    public init(fingerprint: String, width: Int, format: VariantFormat) {
        self.fingerprint = fingerprint
        self.width = width
        self.format = format
    }

    public init?(pathSegment: String) {
        let parts = pathSegment.split(separator: "-")
        guard parts.count == 2, parts[0].count == 16, parts[0].allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) }) else {
            return nil
        }
        let file = parts[1].split(separator: ".")
        guard file.count == 2, let width = Int(file[0]), ProductPhoto.widths.contains(width), String(width) == file[0],
            let format = VariantFormat.allCases.first(where: { $0.fileExtension == file[1] })
        else { return nil }
        self.init(fingerprint: String(parts[0]), width: width, format: format)
    }

    public var pathSegment: String { "\(fingerprint)-\(width).\(format.fileExtension)" }
}
