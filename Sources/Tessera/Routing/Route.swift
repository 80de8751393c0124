/// A named route: a method, a path pattern and its typed parameters.
///
/// Declare routes as static constants where their module and their users can see them,
/// `static let product = Route<Int>("catalog.product", .get, "/products/{id}")`, and generate URLs
/// from them, `CatalogRoutes.product.path(42)`. A misspelt name does not compile, and neither
/// does a missing parameter.
public struct Route<Parameters: RouteParameters>: Sendable, CustomStringConvertible {
    /// A label for logs and error messages, such as `catalog.product`.
    public let name: String
    /// The method the route answers; a `GET` route answers `HEAD` too.
    public let method: HTTPRequest.Method
    /// The path pattern, whose `{…}` segments carry the parameters, in order.
    public let pattern: RoutePattern

    /// A route that answers `method` requests (a `GET` unless told otherwise) for `pattern`.
    public init(_ name: String, _ method: HTTPRequest.Method = .get, _ pattern: RoutePattern) {
        self.name = name
        self.method = method
        self.pattern = pattern
    }

    /// The path for these parameters, ready for `href` or a redirect.
    public func path(_ parameters: Parameters) -> String {
        var writer = RoutePathWriter()
        parameters.write(to: &writer)
        return pattern.path(with: writer.values)
    }

    /// The name, method and pattern, as in `catalog.product (GET /products/{id})`.
    public var description: String { "\(name) (\(method.rawValue) \(pattern))" }
}

extension Route where Parameters == NoParameters {
    /// The path of a route without parameters.
    public var path: String { path(NoParameters()) }
}
