public import Foundation

/// The typed values a route's `{…}` segments carry.
///
/// A route with one parameter uses `Int`, `String` or `UUID` directly (`Route<Int>`); one with
/// several declares a small struct that reads and writes them in order. Because URL generation
/// takes this type, a missing or mistyped parameter is a compile error, not a broken link.
public protocol RouteParameters: Sendable {
    /// How many `{…}` segments these parameters read and write. A route whose pattern has a
    /// different number is refused when the app is built, with the route's name: otherwise its
    /// links would be built wrong and its requests never match.
    static var pathSegmentCount: Int { get }
    /// Reads the captured segments, in order; `nil` when one does not parse (`/products/abc` for
    /// an `Int`), which makes the route not match.
    init?(captures: inout RouteCaptures)
    /// Writes the values, in order, for URL generation.
    func write(to path: inout RoutePathWriter)
}

/// The decoded `{…}` segments of a matched path, consumed in order.
public struct RouteCaptures: Sendable {
    var values: ArraySlice<String>

    /// The captured segments to read, in order; the router makes them from the matched path.
    public init(_ values: [String]) {
        self.values = values[...]
    }

    /// The next segment as a `Value`; `nil` when none is left, it does not parse, or it is not
    /// the value's own spelling (`-640.webp` where the value writes `640.webp`): each value has
    /// one URL, so a cache never keeps it under two.
    public mutating func next<Value: PathParameter>(_: Value.Type = Value.self) -> Value? {
        guard let segment = values.popFirst(), let value = Value(pathSegment: segment), value.pathSegment == segment else { return nil }
        return value
    }
}

/// Collects parameter values for URL generation.
public struct RoutePathWriter: Sendable {
    var values: [String] = []

    /// Adds the next value, in the order of the pattern's `{…}` segments.
    public mutating func append(_ value: some PathParameter) {
        values.append(value.pathSegment)
    }
}

/// A single value that fits in one path segment.
public protocol PathParameter: RouteParameters {
    /// The value in one decoded path segment, or `nil` when it does not parse, so that the route
    /// does not match.
    init?(pathSegment: String)
    /// The value as one path segment, before percent-encoding: its one spelling. Parsing it back
    /// gives the same value, and a route matches a segment only when it is this spelling, so a
    /// type that accepts several spellings still has one URL per value.
    var pathSegment: String { get }
}

extension PathParameter {
    /// One segment.
    public static var pathSegmentCount: Int { 1 }

    /// Reads the one segment of a route with this single parameter.
    public init?(captures: inout RouteCaptures) {
        guard let value: Self = captures.next() else { return nil }
        self = value
    }

    /// Writes the value as the route's one segment.
    public func write(to path: inout RoutePathWriter) {
        path.append(self)
    }
}

extension Int: PathParameter {
    /// A decimal number; a route matches only its own spelling, so `/products/+1` and
    /// `/products/01` are not `/products/1`.
    public init?(pathSegment: String) {
        guard let value = Int(pathSegment) else { return nil }
        self = value
    }

    /// The digits, after a `-` for a negative number.
    public var pathSegment: String { String(self) }
}

extension String: PathParameter {
    /// Any segment but an empty one.
    public init?(pathSegment: String) {
        guard !pathSegment.isEmpty else { return nil }
        self = pathSegment
    }

    /// The string itself; URL generation percent-encodes it.
    public var pathSegment: String { self }
}

extension UUID: PathParameter {
    /// A UUID; a route matches only its own spelling, in lower case.
    public init?(pathSegment: String) {
        guard let value = UUID(uuidString: pathSegment) else { return nil }
        self = value
    }

    /// The UUID in lower case, the usual form in URLs.
    public var pathSegment: String { uuidString.lowercased() }
}

/// For routes without parameters.
public struct NoParameters: RouteParameters, Equatable {
    /// No segments.
    public static var pathSegmentCount: Int { 0 }
    /// The only value: there is nothing to hold.
    public init() {}
    /// Always succeeds: there is nothing to read.
    public init?(captures: inout RouteCaptures) {}
    /// Writes nothing.
    public func write(to path: inout RoutePathWriter) {}
}
