import TesseraViews

/// A registered shared region with the parameters of one use, as a page's slot or its own URL
/// holds it.
struct SharedRegionCall<Shared: SharedRegion>: SharedRegionUse {
    let region: Shared
    let parameters: Shared.Parameters
    /// The region's own URL: its key in the ``RegionCache``, with the language.
    let source: String

    var topics: [Topic] { region.topics(parameters) }
    var keptUntil: [Topic] { region.keptUntil(parameters) }

    /// The fragment for `context`'s language: kept by the app's ``RegionCache`` (`cached`), else
    /// loaded, rendered and kept, unless a topic was published while it loaded.
    ///
    /// What this frame holds across its one wait is kept small: every page runs it once per
    /// shared region, and an async frame that outgrows the task's first slab costs a page an
    /// allocation per region.
    func fragment(in context: RequestContext) async throws -> (fragment: RegionFragment, cached: Bool) {
        guard let cache = context.application.regionCache else { return (RegionFragment(try await render(in: context)), false) }
        let key = source + " " + context.language.code
        if let kept = cache.value(for: key) { return (kept, true) }
        let generation = cache.generation
        return (keep(try await render(in: context), in: cache, as: key, since: generation), false)
    }

    private func render(in context: RequestContext) async throws -> HTMLOutput {
        let shared = SharedRegionContext(context)
        let model = try await region.load(parameters, in: shared)
        return Shared.View.render(model, assets: shared.assets, language: shared.language)
    }

    /// Keeps a copy of `html` with its version, found once for every page that shows the copy.
    private func keep(_ html: HTMLOutput, in cache: RegionCache, as key: String, since generation: RegionCache.Generation) -> RegionFragment {
        let version = RegionVersion.of(html.bytes)
        // A copy of its own size: a view's output reserves more than it writes.
        var kept = html.emptyCopy(capacity: html.bytes.count)
        kept.write(html)
        cache.store(RegionFragment(kept, version: version), for: key, until: keptUntil, since: generation)
        return RegionFragment(html, version: version)
    }

    func failureFragment(for error: any Error, in context: RequestContext) -> HTMLOutput {
        region.failureFragment(for: error, in: SharedRegionContext(context))
    }
}

/// A shared region and its parameters, whatever their types: what a ``Region`` holds.
protocol SharedRegionUse: Sendable {
    var source: String { get }
    var topics: [Topic] { get }
    var keptUntil: [Topic] { get }
    func fragment(in context: RequestContext) async throws -> (fragment: RegionFragment, cached: Bool)
    func failureFragment(for error: any Error, in context: RequestContext) -> HTMLOutput
}

/// What a page gets for a route no shared region was registered at: a region that fails, so a
/// required one fails the page and an optional one shows its note, with the route in the log.
struct UnregisteredSharedRegion: RegionController, CustomStringConvertible {
    let route: String

    func render(in context: RequestContext) async throws -> HTMLOutput { throw self }

    var description: String { "no shared region is registered at route \(route)" }
}

extension UnregisteredSharedRegion: Error {}
