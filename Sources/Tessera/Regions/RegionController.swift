import TesseraViews

/// A child controller that renders one region of a page. The same controller answers alone at
/// the region's own URL, as a bare fragment, so a scraper or a script can refresh one region.
public protocol RegionController: Sendable {
    /// Renders the region's fragment, for the page or for the region's own URL. What it throws
    /// shows ``RegionController/failureFragment(for:in:)`` in the page instead, unless the region
    /// is required.
    func render(in context: RequestContext) async throws -> HTMLOutput

    /// What stands in the region when `render` throws or misses its deadline; the rest of the
    /// page renders as usual. The default is a short note in the request's language; a child
    /// can say something fitting ("Recommendations are unavailable right now").
    func failureFragment(for error: any Error, in context: RequestContext) -> HTMLOutput

    /// The topics the region's model depends on, such as `[OrdersTopics.order(order.id)]`: when a
    /// service publishes one of them, every open page showing this region gets it again
    /// (``LiveRegions``). Known from the controller's inputs, before it renders. Empty, the
    /// default, for a region that never changes while a page is open.
    var topics: [Topic] { get }

    /// Whether the fragment is the same for every visitor in a language, and may be kept until
    /// a topic changes (``RegionCaching/shared(_:until:)``). ``RegionCaching/none``, the
    /// default, renders it for every request.
    var caching: RegionCaching { get }
}

extension RegionController {
    /// None: the region is not live.
    public var topics: [Topic] { [] }

    /// Rendered for every request.
    public var caching: RegionCaching { .none }

    /// A short note that this part of the page could not be loaded.
    public func failureFragment(for error: any Error, in context: RequestContext) -> HTMLOutput {
        var output = HTMLOutput(capacity: 128, language: context.language)
        output.write(static: "<p class=\"region-failed\" role=\"status\">")
        output.text(Messages.regionFailed)
        output.write(static: "</p>")
        return output
    }
}

extension RegionController {
    /// The fragment for `context`, within a page or at the region's own URL: from the app's
    /// ``RegionCache`` when the region is shared and it is kept there (`cached`), else rendered,
    /// and kept when shared, unless a topic was published since the page began (before it read
    /// the model it may have handed the region). A shared region renders without the visitor's
    /// session and values.
    func fragment(in context: RequestContext) async throws -> (html: HTMLOutput, cached: Bool) {
        let caching = self.caching
        guard let key = caching.key else { return (try await render(in: context), false) }
        var visitorless = context
        visitorless.session = .detached
        visitorless.values = RequestValues()
        guard let cache = context.application.live?.regionCache, cache.configuration.maxBytes > 0 else {
            return (try await render(in: visitorless), false)
        }
        let languageKey = key + " " + context.language.code
        if let kept = cache.fragment(for: languageKey) { return (kept, true) }
        // Taken before the page read the model the region may be handed (`.loaded(product)`).
        let generation = context.regionCacheGeneration ?? cache.generation
        let html = try await render(in: visitorless)
        cache.store(html, for: languageKey, topics: caching.topics, since: generation)
        return (html, false)
    }
}

/// A region with nothing to show for this visitor: the slot stays, empty.
public struct EmptyRegion: RegionController {
    /// An empty region.
    public init() {}

    /// Nothing at all.
    public func render(in context: RequestContext) async throws -> HTMLOutput { HTMLOutput(capacity: 0) }
}
