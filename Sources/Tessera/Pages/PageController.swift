import TesseraViews

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
    associatedtype Model: Sendable
    /// The slots of the page's view, `SomePageView.Regions<Region>`, generated from the
    /// template's `{% region %}` tags; `NoRegions` for a page without any.
    associatedtype Regions: RegionSlots<Region> = NoRegions<Region>

    func load(_ context: RequestContext) async throws -> Model

    /// Renders the page's view with `context.render(View.self, model)`, so that its forms carry
    /// the request's CSRF token.
    func render(_ model: Model, in context: RequestContext) -> Page

    /// The regions of the page, each served by a child controller, run concurrently: every
    /// required slot of the template filled, so a forgotten one does not compile.
    func regions(for model: Model, in context: RequestContext) -> Regions
}

extension PageController where Regions == NoRegions<Region> {
    public func regions(for model: Model, in context: RequestContext) -> NoRegions<Region> { NoRegions() }
}

/// A rendered page before the layout: its title and its body, whose region slots
/// (`{% region "name" %}`) the framework fills.
public struct Page: Sendable {
    public var title: String
    public var body: HTMLOutput
    public var status: HTTPResponse.Status
    /// Streamed pages send the layout's head and the ready regions first; buffered pages wait
    /// for every region. By default a page streams when a region is still working once the
    /// page itself is rendered.
    public var delivery: Delivery?

    public enum Delivery: Sendable {
        case streamed
        case buffered
    }

    public init(title: String, body: HTMLOutput, status: HTTPResponse.Status = .ok, delivery: Delivery? = nil) {
        self.title = title
        self.body = body
        self.status = status
        self.delivery = delivery
    }
}
