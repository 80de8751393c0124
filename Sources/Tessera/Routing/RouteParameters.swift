import Foundation

/// The typed values a route's `{…}` segments carry.
///
/// A route with one parameter uses `Int`, `String` or `UUID` directly (`Route<Int>`); one with
/// several declares a small struct that reads and writes them in order. Because URL generation
/// takes this type, a missing or mistyped parameter is a compile error, not a broken link.
public protocol RouteParameters: Sendable {
    /// Reads the captured segments, in order; `nil` when one does not parse (`/products/abc` for
    /// an `Int`), which makes the route not match.
    init?(captures: inout RouteCaptures)
    /// Writes the values, in order, for URL generation.
    func write(to path: inout RoutePathWriter)
}

/// The decoded `{…}` segments of a matched path, consumed in order.
public struct RouteCaptures: Sendable {
    var values: ArraySlice<String>

    public init(_ values: [String]) {
        self.values = values[...]
    }

    public mutating func next<Value: PathParameter>(_: Value.Type = Value.self) -> Value? {
        guard let value = values.popFirst() else { return nil }
        return Value(pathSegment: value)
    }
}

/// Collects parameter values for URL generation.
public struct RoutePathWriter: Sendable {
    var values: [String] = []

    public mutating func append(_ value: some PathParameter) {
        values.append(value.pathSegment)
    }
}

/// A single value that fits in one path segment.
public protocol PathParameter: RouteParameters {
    init?(pathSegment: String)
    var pathSegment: String { get }
}

extension PathParameter {
    public init?(captures: inout RouteCaptures) {
        guard let value: Self = captures.next() else { return nil }
        self = value
    }

    public func write(to path: inout RoutePathWriter) {
        path.append(self)
    }
}

extension Int: PathParameter {
    /// Digits only, so `/products/+1` and `/products/01` do not alias `/products/1`.
    public init?(pathSegment: String) {
        guard let first = pathSegment.first, first.isASCII, first.isNumber || (first == "-" && pathSegment.count > 1),
              pathSegment == "0" || !pathSegment.hasPrefix("0"),
              let value = Int(pathSegment), String(value) == pathSegment
        else { return nil }
        self = value
    }

    public var pathSegment: String { String(self) }
}

extension String: PathParameter {
    public init?(pathSegment: String) {
        guard !pathSegment.isEmpty else { return nil }
        self = pathSegment
    }

    public var pathSegment: String { self }
}

extension UUID: PathParameter {
    public init?(pathSegment: String) {
        guard let value = UUID(uuidString: pathSegment) else { return nil }
        self = value
    }

    public var pathSegment: String { uuidString.lowercased() }
}

/// For routes without parameters.
public struct NoParameters: RouteParameters, Equatable {
    public init() {}
    public init?(captures: inout RouteCaptures) {}
    public func write(to path: inout RoutePathWriter) {}
}
