import TesseraViews

/// A region of a page: its child controller, its own URL, and how long it may take. It fills
/// one slot of the page's view (`ProductPageView.Regions(detail: Region(…), …)`), which names it.
public struct Region: Sendable {
    /// The region's own URL, written as `data-region-src`.
    public var source: String?
    public var controller: any RegionController
    public var deadline: Duration
    /// A required region that fails fails the page; any other shows a small failure note instead.
    public var isRequired: Bool

    public init(
        source: String?,
        controller: any RegionController,
        deadline: Duration = .seconds(2),
        isRequired: Bool = false
    ) {
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
