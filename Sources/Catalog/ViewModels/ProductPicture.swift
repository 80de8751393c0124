import Tessera
import TesseraImages

/// A product photo as a `<picture>`: WebP for the browsers that take it (all current ones), JPEG
/// for the rest, each at the widths a `srcset` offers, so a phone loads the small one.
struct ProductPicture: Sendable {
    /// The photo's links, shared with every other card and page that shows it.
    let links: PhotoLinks
    /// The product's name: a photo of the product says what the product is.
    var alt: String
    /// How wide it is shown, for the browser to pick from `srcset`.
    var sizes: String
    /// `eager` above the fold, `lazy` below it.
    var loading: String

    var webpSrcset: String { links.webpSrcset }
    var jpegSrcset: String { links.jpegSrcset }
    /// The JPEG of 640 pixels, for a browser that reads no `srcset`.
    var src: String { links.src }
    /// The size the photo is shown at before CSS scales it: its shape, so nothing jumps as it loads.
    var width: Int { links.width }
    var height: Int { links.height }

    init(_ links: PhotoLinks, alt: String, sizes: String, eager: Bool) {
        self.links = links
        self.alt = alt
        self.sizes = sizes
        loading = eager ? "eager" : "lazy"
    }
}

/// A product in a grid of cards, with its photo when it has one. The card's photo has an empty
/// `alt`: the product's name is the link right below it, and would be read twice.
struct ProductCard: Sendable {
    var product: Product
    var picture: ProductPicture?

    /// Cards for `products`, their photos read at once; the first `eagerCount` load at once, the
    /// rest lazily, below the fold.
    static func cards(for products: [Product], photos: PhotoService, eagerCount: Int, within budget: DatabaseBudget) async throws -> [ProductCard] {
        let found = try await photos.pictures(of: products.map(\.id), within: budget)
        return products.enumerated().map { index, product in
            // Two columns on a phone, cards of about 15rem on a desktop.
            ProductCard(
                product: product,
                picture: found[product.id].map {
                    ProductPicture($0, alt: "", sizes: "(max-width: 700px) 50vw, 300px", eager: index < eagerCount)
                })
        }
    }
}

/// The product page's detail: the product, and its photo when it has one.
struct ProductDetail: Sendable {
    var product: Product
    var picture: ProductPicture?
}
