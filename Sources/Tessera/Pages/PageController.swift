public import TesseraViews

/// A controller for a full page, built for each request by the factory its module registered.
///
/// Each step of the seed article's controller lifecycle has one place:
/// 1. **read the request's parameters**: the factory, which gets the typed route parameters and
///    injects the services (`{ id, context in ProductController(catalog: catalog, id: id) }`);
/// 2. **load through the services**: ``load(_:)``;
/// 3. **choose the view and the model** and 4. **render**: ``render(_:in:)``;
/// and, for a container, its child controllers: ``regions(for:in:)``.
/// A controller holds no SQL and no business rules: those live in the services.
public protocol PageController: Sendable {
    /// What ``PageController/load(_:)`` gets through the services and
    /// ``PageController/render(_:in:)`` shows: the page's data.
    associatedtype Model: Sendable
    /// The slots of the page's view, `SomePageView.Regions<Region>`, generated from the
    /// template's `{% region %}` tags; `NoRegions` for a page without any.
    associatedtype Regions: RegionSlots<Region> = NoRegions<Region>

    /// Loads the page's data through the injected services; throw `HTTPError` for a 404, or
    /// ``Redirect`` to send the visitor elsewhere.
    func load(_ context: RequestContext) async throws -> Model

    /// Renders the page's view with `context.render(View.self, model)`, so that its forms carry
    /// the request's CSRF token.
    func render(_ model: Model, in context: RequestContext) -> Page

    /// The regions of the page, each served by a child controller, run concurrently: every
    /// required slot of the template filled, so a forgotten one does not compile.
    func regions(for model: Model, in context: RequestContext) -> Regions

    /// What the page's view shows from its model depends on (`.until([CatalogTopics.product(id)])`),
    /// known from the controller's inputs: declared, a repeat view whose version is unchanged is
    /// answered 304 before ``load(_:)`` (``PageValidators``). `.undeclared` by default.
    var freshness: PageFreshness { get }
}

extension PageController {
    /// Not declared: every view loads and renders the page.
    public var freshness: PageFreshness { .undeclared }
}

extension PageController where Regions == NoRegions<Region> {
    /// No regions, for a page whose view has no slots.
    public func regions(for model: Model, in context: RequestContext) -> NoRegions<Region> { NoRegions() }
}

/// A rendered page before the layout: its title and its body, whose region slots
/// (`{% region "name" %}`) the framework fills.
public struct Page: Sendable {
    /// The page's title, for the layout's `<title>`.
    public var title: String
    /// The rendered view, its region slots still to be filled.
    public var body: HTMLOutput
    /// The answer's status: 200 for most pages, 422 for a form shown again with its messages.
    public var status: HTTPResponse.Status
    /// Streamed pages send the layout's head and the ready regions first; buffered pages wait
    /// for every region. By default a page streams when a region is still working once the
    /// page itself is rendered.
    public var delivery: Delivery?
    /// A sentence or two about the page, for `<meta name="description">`: what a search result
    /// shows under the title. `nil` leaves it to the layout.
    public var description: String?
    /// The path search engines should keep for this page, for `<link rel="canonical">`, when its
    /// URL has variants (a sort order, say); ``RequestContext/absoluteURL(for:)`` makes it whole.
    public var canonicalPath: String?

    /// How a page with regions is sent, for a page that should not leave it to the framework.
    public enum Delivery: Sendable {
        /// In pieces: the layout's head and what is ready first, then each slow region as it
        /// answers.
        case streamed
        /// In one piece, with a `Content-Length`, once every region has answered.
        case buffered
    }

    /// A page; leave `delivery` out to let the framework choose (see ``Page/delivery``).
    public init(
        title: String, body: HTMLOutput, status: HTTPResponse.Status = .ok, delivery: Delivery? = nil,
        description: String? = nil, canonicalPath: String? = nil
    ) {
        self.title = title
        self.body = body
        self.status = status
        self.delivery = delivery
        self.description = description
        self.canonicalPath = canonicalPath
    }
}
