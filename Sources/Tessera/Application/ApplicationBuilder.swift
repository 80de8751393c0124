public import Logging
public import ServiceLifecycle
public import TesseraViews

/// Collects what the modules register, then builds the immutable ``Application``.
///
/// ```swift
/// var app = ApplicationBuilder()
/// app.register(CatalogModule(catalog: catalog))      // routes, regions
/// app.errorPages[.notFound] = FriendlyNotFoundPage()
/// let application = try app.build(
///     layout: SiteLayout(),
///     middleware: [SessionMiddleware(sessions), ErrorPageMiddleware()],
///     routeMiddleware: [CSRFMiddleware()]
/// )
/// ```
public struct ApplicationBuilder: Sendable {
    /// The app's routes: pages, region fragments and actions.
    public var routes = RouterBuilder()
    /// The regions modules offer each other by key.
    public var regions = RegionRegistry()
    /// The error page controller for each status that has its own; the rest get the default.
    public var errorPages: [HTTPResponse.Status: any ErrorPageController] = [:]
    /// What the server that will run the app reports (its phase, its connections), for modules
    /// that answer about it, such as ``HealthModule``. ``ApplicationRunner`` hands it to the server.
    public let serverState = HTTPServerState()

    /// The fingerprinted URLs templates link static files by: the framework's own scripts
    /// (``FrameworkScripts``), and the public folder's files once ``serve(_:)`` is called.
    public private(set) var assets = FrameworkScripts.assetURLs

    /// Where the site is reached (`PUBLIC_URL`), for absolute URLs such as a sitemap's; `nil`
    /// takes each request's own `Host`.
    public var siteURL: SiteURL?

    /// Live regions: set it to make the regions that declare topics live, and to serve their
    /// pages' streams at ``LiveRegions/streamPath``. Services publish their changes to the same
    /// object. `nil`, the default, renders every region once, as before.
    public var live: LiveRegions?

    /// The shared regions' fragments, kept until a topic they show is published: the app owns
    /// the cache, and its ``live`` regions tell it of every publication (without them it is not
    /// used, since nothing would). 8 MB for a minute each by default; `.regions(maxBytes: 0)`
    /// renders every shared region for every request.
    public var regionCache: RegionCache = .regions()

    /// The versions of pages shown lately, kept until a topic they depend on is published, so a
    /// repeat view is answered 304 before its page loads; used, like ``regionCache``, only with
    /// ``live`` regions. Pages whose controller, layout and regions declare their freshness
    /// (``PageFreshness``) are validated. `.pages(maxBytes: 0)` validates none.
    public var pageValidators: PageValidators = .pages()

    /// Whole pages kept for visitors without a session (``KeptPage``), until a topic they show is
    /// published; used, like ``regionCache``, only with ``live`` regions, which tell it of every
    /// publication, here and on the other instances. 64 MB by default; `KeptPages(maxBytes: 0)`
    /// renders every page for every visitor.
    public var keptPages = KeptPages()

    /// What the modules need running beside the server for as long as it serves (a listener
    /// that keeps a copy in memory current, say), started and stopped with it by
    /// ``ApplicationRunner``.
    public var services: [any Service] = []

    /// Where the app's ``RateLimit``s count: this process's memory by default; a store in the
    /// shared database when several instances serve, so that they allow together what one allows.
    public var rateLimitStore: any RateLimitStore = MemoryRateLimitStore()

    /// A step for a route ``RouterBuilder/group(_:routes:)`` that allows `rule`'s requests per
    /// window for each `key`, counted in ``rateLimitStore``.
    public func rateLimit(_ name: String, _ rule: RateLimitRule, by key: RateLimitKey = .clientAddress) -> RateLimit {
        RateLimit(name, rule, by: key, store: rateLimitStore)
    }

    /// An empty builder: no routes or regions yet, and the default error page for every status.
    public init() {}

    /// Serves `files` for every address no route takes, and lets templates link them by
    /// content hash with `{{ "/css/site.css" | asset }}`.
    public mutating func serve(_ files: PublicFiles) {
        routes.fallback(files)
        assets = files.assetURLs.merging(FrameworkScripts.assetURLs)
    }

    /// Registers everything a module offers.
    public mutating func register(_ module: some FeatureModule) {
        module.register(in: &self)
    }

    /// The app; or, when the route table is wrong (two routes that clash, a pattern that does not
    /// fit its parameters), the error that names the route.
    ///
    /// - Parameters:
    ///   - layout: the site's layout, for every page and error page.
    ///   - middleware: the steps every request goes through, outermost first, around the router.
    ///     The usual chain is `[SessionMiddleware(…), ErrorPageMiddleware()]` plus the app's own.
    ///   - routeMiddleware: the steps a request goes through once a route matched, just before its
    ///     controller, such as ``CSRFMiddleware``: an unknown address stays a 404.
    ///   - logger: where requests that fail are logged; the context hands it to every controller.
    ///   - developmentMode: shows the details of a 500 on the page. Never in production.
    public func build(
        layout: some PageLayout = BasicLayout(),
        middleware: [any Middleware] = [ErrorPageMiddleware()],
        routeMiddleware: [any Middleware] = [CSRFMiddleware()],
        logger: Logger = Logger(label: "tessera"),
        developmentMode: Bool = false
    ) throws(RouteTableError) -> Application {
        var routes = routes
        FrameworkScripts.register(in: &routes)
        if live != nil, keptPages.isOn, keptPages.dictionaries.isOn {
            keptPages.dictionaries.register(in: &routes)
        }
        if let live, live.servesStreams {
            let stream = LiveStream(live: live)
            routes.action(Route<NoParameters>("tessera.live", .get, RoutePattern(LiveRegions.streamPath))) { _, context in
                try await stream.respond(in: context)
            }
        }
        let router = try routes.build(routeMiddleware: routeMiddleware)
        let recordsMetrics = middleware.contains { $0 is MetricsMiddleware }
        if let live, regionCache.isOn { live.follow(regionCache) }
        if let live, pageValidators.isOn { live.follow(pageValidators) }
        if let live, keptPages.isOn { live.follow(keptPages) }
        let parts = ApplicationParts(
            layout: layout, regions: regions, sharedRegions: routes.sharedRegions, errorPages: ErrorPageRenderer(controllers: errorPages),
            logger: logger, developmentMode: developmentMode,
            regionMetrics: recordsMetrics ? RegionMetrics() : nil, assets: assets, siteURL: siteURL, live: live,
            regionCache: live != nil && regionCache.isOn ? regionCache : nil,
            pageValidators: live != nil && pageValidators.isOn ? pageValidators : nil,
            keptPages: live != nil && keptPages.isOn ? keptPages : nil
        )
        let application = Application(parts: parts, router: router, middleware: middleware, serverState: serverState, services: services)
        live?.bind(application)
        parts.keptPages?.bind(application)
        return application
    }
}
