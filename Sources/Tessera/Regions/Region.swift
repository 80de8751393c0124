import TesseraViews

/// A region of a page: its child controller, its own URL, and how long it may take. It fills
/// one slot of the page's view (`ProductPageView.Regions(detail: Region(…), …)`), which names it.
public struct Region: Sendable {
    /// The region's own URL, written as `data-region-src`.
    public var source: String?
    /// The child controller that renders the region, within the page and at its own URL.
    public var controller: any RegionController
    /// How long the child may take; past it the region shows its failure fragment, or, when it is
    /// required, the page fails.
    public var deadline: Duration
    /// A required region that fails fails the page; any other shows a small failure note instead.
    public var isRequired: Bool

    /// A region rendered by `controller`, at `source` when it has its own URL; unless told
    /// otherwise it has two seconds to answer and is optional.
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
    /// The name the region is registered under, such as `catalog.addToCart`: unique in the app.
    public let name: String

    /// A key named `name`; start the name with the module's, so that keys of different modules
    /// never clash.
    public init(_ name: String) {
        self.name = name
    }

    /// The key's name.
    public var description: String { name }
}
