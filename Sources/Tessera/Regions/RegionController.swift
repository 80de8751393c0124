public import TesseraViews

/// A child controller that renders one region of a page for this visitor. The same controller
/// answers alone at the region's own URL, as a bare fragment, so a scraper or a script can
/// refresh one region. A fragment the same for every visitor is a ``SharedRegion``.
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
}

extension RegionController {
    /// None: the region is not live.
    public var topics: [Topic] { [] }

    /// A short note that this part of the page could not be loaded.
    public func failureFragment(for error: any Error, in context: RequestContext) -> HTMLOutput {
        RegionFailureNote.fragment(in: context.language)
    }
}

/// A region with nothing to show for this visitor: the slot stays, empty.
public struct EmptyRegion: RegionController {
    /// An empty region.
    public init() {}

    /// Nothing at all.
    public func render(in context: RequestContext) async throws -> HTMLOutput { HTMLOutput(capacity: 0) }
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
