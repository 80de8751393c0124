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

/// A region of a page: its slot name, its child controller, and how long it may take.
public struct Region: Sendable {
    public var name: String
    /// The region's own URL, written as `data-region-src`.
    public var source: String?
    public var controller: any RegionController
    public var deadline: Duration
    /// A required region that fails fails the page; any other shows a small failure note instead.
    public var isRequired: Bool

    public init(
        _ name: String,
        source: String?,
        controller: any RegionController,
        deadline: Duration = .seconds(2),
        isRequired: Bool = false
    ) {
        self.name = name
        self.source = source
        self.controller = controller
        self.deadline = deadline
        self.isRequired = isRequired
    }
}

/// A region one module offers and another asks for, by a key both can see: the module that asks
/// declares the key, the module that provides imports it. `Input` is what the asker passes
/// (a product id, say). Asking when nobody provides gives `nil`: the region is simply absent.
public struct RegionKey<Input: Sendable>: Sendable, Hashable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public var description: String { name }
}
