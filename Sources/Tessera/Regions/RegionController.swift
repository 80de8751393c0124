import TesseraViews

/// A child controller that renders one region of a page. The same controller answers alone at
/// the region's own URL, as a bare fragment, so a scraper or a script can refresh one region.
public protocol RegionController: Sendable {
    func render(in context: RequestContext) async throws -> HTMLOutput

    /// What stands in the region when `render` throws or misses its deadline; the rest of the
    /// page renders as usual. The default is a short note; a child can say something fitting
    /// ("Recommendations are unavailable right now").
    func failureFragment(for error: any Error) -> HTMLOutput
}

extension RegionController {
    public func failureFragment(for error: any Error) -> HTMLOutput {
        var output = HTMLOutput(capacity: 128)
        output.write(static: "<p class=\"region-failed\" role=\"status\">This part of the page could not be loaded.</p>")
        return output
    }
}

/// A region with nothing to show for this visitor: the slot stays, empty.
public struct EmptyRegion: RegionController {
    public init() {}

    public func render(in context: RequestContext) async throws -> HTMLOutput { HTMLOutput(capacity: 0) }
}
