import TesseraViews

/// A child controller whose fragment is the same for every visitor in a language, such as a
/// product's description: kept by the app's ``RegionCache`` until one of its ``caching``'s topics
/// is published, and handed to everyone. It renders from a ``SharedRegionContext``, which holds
/// nothing of the visitor, so reading the visitor there does not compile. What the page hands
/// its initialiser is shared too: give it the route's parameters, a loaded model and services.
public protocol SharedRegionController: Sendable {
    /// Renders the fragment that every visitor in `context`'s language gets.
    func render(in context: SharedRegionContext) async throws -> HTMLOutput

    /// What stands in the region when `render` throws or misses its deadline; never kept.
    func failureFragment(for error: any Error, in context: SharedRegionContext) -> HTMLOutput

    /// The topics whose publication shows the region again on open pages (``LiveRegions``).
    var topics: [Topic] { get }

    /// The key it is kept under and the topics that end it (``RegionCaching/shared(_:until:)``).
    var caching: RegionCaching { get }
}

extension SharedRegionController {
    /// None: the region is not live.
    public var topics: [Topic] { [] }

    /// A short note that this part of the page could not be loaded.
    public func failureFragment(for error: any Error, in context: SharedRegionContext) -> HTMLOutput {
        RegionFailureNote.fragment(in: context.language)
    }

    /// The fragment for `context`: kept by the app's ``RegionCache`` (`cached`), else rendered and
    /// kept, unless a topic was published since the page began, before it read the model it may
    /// have handed the region.
    func fragment(in context: RequestContext) async throws -> (html: HTMLOutput, cached: Bool) {
        let shared = SharedRegionContext(context)
        guard let cache = context.application.regionCache else { return (try await render(in: shared), false) }
        let caching = self.caching
        let languageKey = caching.key + " " + context.language.code
        if let kept = cache.value(for: languageKey) { return (kept, true) }
        // Taken before the page read the model the region may be handed (`.loaded(product)`).
        let generation = context.regionCacheGeneration ?? cache.generation
        let html = try await render(in: shared)
        // A copy of its own size: a view's output reserves more than it writes.
        var kept = html.emptyCopy(capacity: html.bytes.count)
        kept.write(html)
        cache.store(kept, for: languageKey, until: caching.topics, since: generation)
        return (html, false)
    }
}

/// The note a failed region shows, shared by both kinds of region.
enum RegionFailureNote {
    static func fragment(in language: Language) -> HTMLOutput {
        var output = HTMLOutput(capacity: 128, language: language)
        output.write(static: "<p class=\"region-failed\" role=\"status\">")
        output.text(Messages.regionFailed)
        output.write(static: "</p>")
        return output
    }
}
