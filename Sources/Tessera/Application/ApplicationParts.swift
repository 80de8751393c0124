import Logging
import TesseraViews

/// What every request of an app shares: built once by ``ApplicationBuilder``, immutable after.
/// Controllers reach its parts by name through ``RequestContext`` (`context.layout`,
/// `context.regions`), never the whole.
final class ApplicationParts: Sendable {
    let layout: any PageLayout
    let regions: RegionRegistry
    /// The shared regions registered with the routes, which pages name by route.
    let sharedRegions: SharedRegionTable
    let errorPages: ErrorPageRenderer
    let logger: Logger
    /// Shows the details of a 500 on the page. Never in production.
    let developmentMode: Bool
    /// Region render times, when the app records metrics.
    let regionMetrics: RegionMetrics?
    /// The fingerprinted URLs of the static files the app serves, for the `asset` filter.
    let assets: AssetURLs
    /// Where the site is reached, when configured; for absolute URLs.
    let siteURL: SiteURL?
    /// Live regions, when the app has them: pages then mark their live regions and their stream.
    let live: LiveRegions?
    /// Shared regions' fragments, when something tells the cache what is published (``live``).
    let regionCache: RegionCache?
    /// Pages' versions, for a 304 before loading, when something tells them what is published.
    let pageValidators: PageValidators?
    /// Whole pages for visitors without a session, when something tells them what is published.
    let keptPages: KeptPages?

    init(
        layout: any PageLayout, regions: RegionRegistry, sharedRegions: SharedRegionTable, errorPages: ErrorPageRenderer, logger: Logger,
        developmentMode: Bool,
        regionMetrics: RegionMetrics?, assets: AssetURLs, siteURL: SiteURL?, live: LiveRegions?, regionCache: RegionCache?,
        pageValidators: PageValidators?, keptPages: KeptPages?
    ) {
        self.keptPages = keptPages
        self.live = live
        self.regionCache = regionCache
        self.pageValidators = pageValidators
        self.assets = assets
        self.siteURL = siteURL
        self.regionMetrics = regionMetrics
        self.layout = layout
        self.regions = regions
        self.sharedRegions = sharedRegions
        self.errorPages = errorPages
        self.logger = logger
        self.developmentMode = developmentMode
    }
}
