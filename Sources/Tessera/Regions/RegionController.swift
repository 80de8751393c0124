import TesseraViews

/// A child controller that renders one region of a page. The same controller answers alone at
/// the region's own URL, as a bare fragment, so a scraper or a script can refresh one region.
public protocol RegionController: Sendable {
    /// Renders the region's fragment, for the page or for the region's own URL. What it throws
    /// shows ``RegionController/failureFragment(for:)`` in the page instead, unless the region
    /// is required.
    func render(in context: RequestContext) async throws -> HTMLOutput

    /// What stands in the region when `render` throws or misses its deadline; the rest of the
    /// page renders as usual. The default is a short note; a child can say something fitting
    /// ("Recommendations are unavailable right now").
    func failureFragment(for error: any Error) -> HTMLOutput
}

extension RegionController {
    /// A short note that this part of the page could not be loaded.
    public func failureFragment(for error: any Error) -> HTMLOutput {
        var output = HTMLOutput(capacity: 128)
        output.write(static: "<p class=\"region-failed\" role=\"status\">This part of the page could not be loaded.</p>")
        return output
    }
}

/// A region with nothing to show for this visitor: the slot stays, empty.
public struct EmptyRegion: RegionController {
    /// An empty region.
    public init() {}

    /// Nothing at all.
    public func render(in context: RequestContext) async throws -> HTMLOutput { HTMLOutput(capacity: 0) }
}
