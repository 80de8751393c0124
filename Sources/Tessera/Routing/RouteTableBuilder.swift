import Logging
import TesseraViews

/// How a feature module plugs into the app: one entry point that registers its routes, the
/// controller factory of each, and the regions it offers to other modules.
public protocol FeatureModule: Sendable {
    func register(in routes: inout RouteTableBuilder)
}

/// Collects registrations, then builds the immutable ``RouteTable``, refusing clashing routes.
public struct RouteTableBuilder: Sendable {
    var entries: [RouteEntry] = []
    var regionProviders: [String: RegionProvider] = [:]
    var errorPages: [Int: any ErrorPageController] = [:]
    var fallback: (any HTTPResponder)?

    public init() {}

    /// Answers `GET`/`HEAD` requests no route matched, such as static files. A 404 it throws
    /// becomes the usual error page.
    public mutating func fallback(_ responder: some HTTPResponder) {
        fallback = responder
    }

    /// Registers everything a module offers.
    public mutating func register(_ module: some FeatureModule) {
        module.register(in: &self)
    }

    /// A full page: the factory reads the typed parameters and injects the services.
    public mutating func page<Parameters, Controller: PageController>(
        _ route: Route<Parameters>,
        _ factory: @escaping @Sendable (Parameters, RequestContext) throws -> Controller
    ) {
        add(route) { parameters, context in
            try await PageRenderer.respond(with: try factory(parameters, context), in: context)
        }
    }

    /// A region's own URL: the child controller answers alone, as a bare fragment.
    public mutating func fragment<Parameters>(
        _ route: Route<Parameters>,
        _ factory: @escaping @Sendable (Parameters, RequestContext) throws -> any RegionController
    ) {
        add(route) { parameters, context in
            let controller = try factory(parameters, context)
            let output = try await FormProtection.$tokenSource.withValue(context.session) {
                try await controller.render(in: context)
            }
            return Response.html(output.bytes)
        }
    }

    /// Anything else, such as a form post that redirects.
    public mutating func action<Parameters>(
        _ route: Route<Parameters>,
        _ handler: @escaping @Sendable (Parameters, RequestContext) async throws -> Response
    ) {
        add(route, handler)
    }

    /// Offers a region under `key`; the factory may still decline (`nil`) for a given input,
    /// such as "purchases of this product" when nobody is signed in. `source` gives the region's
    /// own URL (a ``fragment(_:_:)`` the providing module registers), written as
    /// `data-region-src` so that scrapers and scripts can fetch the region alone.
    public mutating func provide<Input>(
        _ key: RegionKey<Input>,
        source: @escaping @Sendable (Input) -> String?,
        _ factory: @escaping @Sendable (Input, RequestContext) -> (any RegionController)?
    ) {
        regionProviders[key.name] = RegionProvider(
            make: { input, context in (input as? Input).flatMap { factory($0, context) } },
            source: { input in (input as? Input).flatMap(source) }
        )
    }

    /// The controller that renders error pages for `status`, instead of the default one.
    public mutating func errorPage(_ status: HTTPResponse.Status, _ controller: some ErrorPageController) {
        errorPages[status.code] = controller
    }

    private mutating func add<Parameters>(
        _ route: Route<Parameters>,
        _ handler: @escaping @Sendable (Parameters, RequestContext) async throws -> Response
    ) {
        entries.append(RouteEntry(name: route.name, method: route.method, pattern: route.pattern) { captures, context in
            var reader = RouteCaptures(captures)
            guard let parameters = Parameters(captures: &reader) else { return nil }
            return { try await handler(parameters, context) }
        })
    }

    /// The table, or the first pair of clashing routes.
    public func build(
        layout: some PageLayout = BasicLayout(),
        sessions: SessionConfiguration? = nil,
        logger: Logger = Logger(label: "tessera.routes"),
        developmentMode: Bool = false
    ) throws(RouteClash) -> RouteTable {
        for (index, first) in entries.enumerated() {
            for second in entries[(index + 1)...] where first.method == second.method && first.pattern.hasSameShape(as: second.pattern) {
                throw RouteClash(first: first.name, second: second.name, method: first.method, pattern: first.pattern)
            }
        }
        return RouteTable(
            entries: entries, regionProviders: regionProviders, errorPages: errorPages, fallback: fallback,
            layout: layout, sessions: sessions, logger: logger, developmentMode: developmentMode
        )
    }
}

/// Two routes that would answer the same requests.
public struct RouteClash: Error, CustomStringConvertible, Equatable {
    public let first: String
    public let second: String
    public let method: HTTPRequest.Method
    public let pattern: RoutePattern

    public init(first: String, second: String, method: HTTPRequest.Method, pattern: RoutePattern) {
        self.first = first
        self.second = second
        self.method = method
        self.pattern = pattern
    }

    public var description: String {
        "routes “\(first)” and “\(second)” both answer \(method.rawValue) \(pattern)"
    }
}

struct RouteEntry: Sendable {
    let name: String
    let method: HTTPRequest.Method
    let pattern: RoutePattern
    /// Decodes the captures; `nil` when they do not fit the route's parameter types.
    let prepare: @Sendable ([String], RequestContext) -> (@Sendable () async throws -> Response)?
}

struct RegionProvider: Sendable {
    let make: @Sendable (any Sendable, RequestContext) -> (any RegionController)?
    let source: @Sendable (any Sendable) -> String?
}

extension RoutePattern {
    /// The same literals at the same places, and parameters at the same places.
    func hasSameShape(as other: RoutePattern) -> Bool {
        guard segments.count == other.segments.count else { return false }
        return zip(segments, other.segments).allSatisfy { a, b in
            switch (a, b) {
            case (.literal(let x), .literal(let y)): x == y
            case (.parameter, .parameter): true
            default: false
            }
        }
    }
}
