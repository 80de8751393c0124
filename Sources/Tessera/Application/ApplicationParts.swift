import Logging

/// What every request of an app shares: built once by ``ApplicationBuilder``, immutable after.
/// Controllers reach its parts by name through ``RequestContext`` (`context.layout`,
/// `context.regions`), never the whole.
final class ApplicationParts: Sendable {
    let layout: any PageLayout
    let regions: RegionRegistry
    let errorPages: ErrorPageRenderer
    let logger: Logger
    /// Shows the details of a 500 on the page. Never in production.
    let developmentMode: Bool
    /// Region render times, when the app records metrics.
    let regionMetrics: RegionMetrics?

    init(layout: any PageLayout, regions: RegionRegistry, errorPages: ErrorPageRenderer, logger: Logger, developmentMode: Bool, regionMetrics: RegionMetrics?) {
        self.regionMetrics = regionMetrics
        self.layout = layout
        self.regions = regions
        self.errorPages = errorPages
        self.logger = logger
        self.developmentMode = developmentMode
    }
}
