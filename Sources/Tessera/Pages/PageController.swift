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

    func load(_ context: RequestContext) async throws -> Model

    func render(_ model: Model, in context: RequestContext) -> Page

    /// The regions of the page, each served by a child controller, run concurrently.
    func regions(for model: Model, in context: RequestContext) -> [Region]
}

extension PageController {
    public func regions(for model: Model, in context: RequestContext) -> [Region] { [] }
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
