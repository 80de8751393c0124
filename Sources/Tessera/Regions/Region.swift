import TesseraViews

/// A region of a page: its child controller, its own URL, and how long it may take. It fills
/// one slot of the page's view (`ProductPageView.Regions(detail: Region(…), …)`), which names it.
public struct Region: Sendable {
    /// The region's own URL, written as `data-region-src`.
    public var source: String?
    /// The child controller that renders the region, within the page and at its own URL.
    let child: Child
    /// How long the child may take; past it the region shows its failure fragment, or, when it is
    /// required, the page fails.
    public var deadline: Duration
    /// A required region that fails fails the page; any other shows a small failure note instead.
    public var isRequired: Bool

    /// A region rendered for this visitor by `controller`, at `source` when it has its own URL;
    /// unless told otherwise it has two seconds to answer and is optional.
    public init(
        source: String?,
        controller: any RegionController,
        deadline: Duration = .seconds(2),
        isRequired: Bool = false
    ) {
        self.init(source: source, child: .perVisitor(controller), deadline: deadline, isRequired: isRequired)
    }

    /// The shared region registered at `route` (``RouterBuilder/sharedRegion(_:_:)``), for
    /// `parameters`, at its own URL; unless told otherwise it has two seconds to answer and is
    /// optional. The parameters reach the region through their path, exactly what it would get
    /// at that URL, so nothing else the page holds does.
    public init<Parameters>(
        shared route: Route<Parameters>,
        _ parameters: Parameters,
        deadline: Duration = .seconds(2),
        isRequired: Bool = false,
        in context: RequestContext
    ) {
        var path = RoutePathWriter()
        parameters.write(to: &path)
        let source = route.pattern.path(with: path.values)
        let child: Child =
            if let use = context.application.sharedRegions.use(of: route.name, segments: path.values, source: source) {
                .shared(use)
            } else {
                .perVisitor(UnregisteredSharedRegion(route: route.name))
            }
        self.init(source: source, child: child, deadline: deadline, isRequired: isRequired)
    }

    init(source: String, shared use: any SharedRegionUse) {
        self.init(source: source, child: .shared(use), deadline: .seconds(2), isRequired: false)
    }

    private init(source: String?, child: Child, deadline: Duration, isRequired: Bool) {
        self.source = source
        self.child = child
        self.deadline = deadline
        self.isRequired = isRequired
    }

    /// The two kinds of child: one sees the visitor, the other cannot.
    enum Child: Sendable {
        case perVisitor(any RegionController)
        case shared(any SharedRegionUse)
    }

    /// The topics the child's model depends on.
    var topics: [Topic] {
        switch child {
        case .perVisitor(let controller): controller.topics
        case .shared(let use): use.topics
        }
    }

    /// Everything the fragment depends on, for the page's validator (``PageValidators``), or
    /// `nil` when not declared. A shared region declares it for its cache; a per-visitor region
    /// through its live topics, so one without topics is taken as undeclared.
    var dependencies: [Topic]? {
        switch child {
        case .shared(let use): use.keptUntil + use.topics
        case .perVisitor(let controller) where controller is EmptyRegion: []
        case .perVisitor(let controller): controller.topics.isEmpty ? nil : controller.topics
        }
    }

    /// The child's fragment, and whether it came from the ``RegionCache``.
    func fragment(in context: RequestContext) async throws -> (fragment: RegionFragment, cached: Bool) {
        switch child {
        case .perVisitor(let controller): (RegionFragment(try await controller.render(in: context)), false)
        case .shared(let use): try await use.fragment(in: context)
        }
    }

    /// What the child shows in place of its fragment after `error`.
    func failureFragment(for error: any Error, in context: RequestContext) -> HTMLOutput {
        switch child {
        case .perVisitor(let controller): controller.failureFragment(for: error, in: context)
        case .shared(let use): use.failureFragment(for: error, in: context)
        }
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
