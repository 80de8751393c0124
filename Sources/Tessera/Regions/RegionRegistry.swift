/// The regions modules offer each other, by key: the mediator of the seed article (CTMediator)
/// for page regions.
///
/// The module that asks declares a ``RegionKey`` (the catalog's `addToCart`); the module that
/// provides imports the key and registers a factory for it. Asking when nobody provides gives
/// `nil`, and the region is simply absent from the page.
public struct RegionRegistry: Sendable {
    private var providers: [String: Provider] = [:]

    /// An empty registry: every region asked for is absent until a module provides it.
    public init() {}

    /// Offers a region under `key`; the factory may still decline (`nil`) for a given input,
    /// such as "purchases of this product" when nobody is signed in. `source` gives the region's
    /// own URL (a fragment route the providing module registers), written as `data-region-src`
    /// so that scrapers and scripts can fetch the region alone.
    public mutating func provide<Input>(
        _ key: RegionKey<Input>,
        source: @escaping @Sendable (Input) -> String?,
        _ factory: @escaping @Sendable (Input, RequestContext) -> (any RegionController)?
    ) {
        providers[key.name] = Provider(
            make: { input, context in (input as? Input).flatMap { factory($0, context) } },
            source: { input in (input as? Input).flatMap(source) }
        )
    }

    /// The region provided under `key`, with the provider's fragment URL, for an optional slot
    /// of the asking page; `nil` when nobody provides it or the provider declines.
    public func region<Input>(providedFor key: RegionKey<Input>, input: Input, in context: RequestContext) -> Region? {
        guard let provider = providers[key.name], let controller = provider.make(input, context) else { return nil }
        return Region(source: provider.source(input), controller: controller)
    }

    private struct Provider: Sendable {
        let make: @Sendable (any Sendable, RequestContext) -> (any RegionController)?
        let source: @Sendable (any Sendable) -> String?
    }
}
