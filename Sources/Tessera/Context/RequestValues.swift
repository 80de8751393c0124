/// Names a typed value an app attaches to each request, as SwiftUI's environment keys or
/// ASP.NET's `HttpContext.Features` do: a middleware loads it once, and every controller, region
/// and layout of the request reads it, typed, instead of parsing the session's strings again.
///
/// ```swift
/// public enum CurrentShopper: RequestValueKey { public typealias Value = Shopper }
/// context[CurrentShopper.self] = shopper          // in a middleware, before `next`
/// let shopper = context[CurrentShopper.self]      // anywhere after it
/// ```
public protocol RequestValueKey {
    /// The type of the value, such as the signed-in shopper.
    associatedtype Value: Sendable
}

/// The values attached to one request. Empty costs nothing: most requests carry one or two.
struct RequestValues: Sendable {
    private var entries: [ObjectIdentifier: any Sendable] = [:]

    subscript<Key: RequestValueKey>(_ key: Key.Type) -> Key.Value? {
        get { entries[ObjectIdentifier(key)] as? Key.Value }
        set { entries[ObjectIdentifier(key)] = newValue }
    }
}
