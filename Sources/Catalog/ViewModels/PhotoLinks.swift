import Tessera
import TesseraImages

/// A photo's URLs as a `<picture>` needs them, made once per photo (``PhotoShelf`` keeps them):
/// a `srcset` per format at the widths the photo has, the 640 px JPEG for browsers that read no
/// `srcset`, and the size that keeps the page from jumping as it loads.
///
/// A class: every card and page that shows the photo copies it, and one reference is one
/// retain where three strings were three.
final class PhotoLinks: Sendable, Equatable {
    let webpSrcset: String
    let jpegSrcset: String
    let src: String
    let width: Int
    let height: Int

    init(_ photo: ProductPhoto) {
        let widths = ProductPhoto.widths.reduce(into: [(requested: Int, actual: Int)]()) { list, width in
            let actual = photo.actualWidth(width)
            if list.last?.actual != actual { list.append((width, actual)) }
        }
        func srcset(_ format: VariantFormat) -> String {
            widths.map { "\(CatalogRoutes.photo.path(photo.variant(width: $0.requested, format: format))) \($0.actual)w" }.joined(separator: ", ")
        }
        webpSrcset = srcset(.webp)
        jpegSrcset = srcset(.jpeg)
        src = CatalogRoutes.photo.path(photo.variant(width: 640, format: .jpeg))
        let shownWidth = photo.actualWidth(640)
        width = shownWidth
        height = photo.width > 0 ? max(1, photo.height * shownWidth / photo.width) : 1
    }

    static func == (lhs: PhotoLinks, rhs: PhotoLinks) -> Bool {
        (lhs.webpSrcset, lhs.jpegSrcset, lhs.src, lhs.width, lhs.height) == (rhs.webpSrcset, rhs.jpegSrcset, rhs.src, rhs.width, rhs.height)
    }
}
