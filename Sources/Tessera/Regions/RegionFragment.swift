public import TesseraViews

/// A region's rendered HTML, with its version (`RegionVersion`) when it has one: a shared
/// region's is found once, when its fragment is kept (``RegionCache``), and written beside it on
/// every page that shows it, so that a navigation script can name the regions it holds.
///
/// A region of the visitor's own gets a version only when it is live: a digest per region and
/// request costs an allocation (swift-crypto's SHA-256 context), which the allocation budgets
/// count, and such a region is small and the visitor's alone.
public struct RegionFragment: Sendable {
    /// The fragment's HTML.
    public let html: HTMLOutput
    /// A digest of ``html`` (equal versions, equal fragments), or `nil` when none was found.
    public let version: String?

    init(_ html: HTMLOutput, version: String? = nil) {
        self.html = html
        self.version = version
    }
}
