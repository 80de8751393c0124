import Tessera

/// Who is signed in, as every page of the request sees it: loaded from the session once, by
/// ``ShopperMiddleware``, and read as `context.shopper` by any module.
public struct Shopper: Sendable, Equatable {
    public let id: Int
    public let name: String
    /// Whether the account is staff's, as it was when they signed in: the back office is theirs.
    public let isStaff: Bool

    public init(id: Int, name: String, isStaff: Bool = false) {
        self.id = id
        self.name = name
        self.isStaff = isStaff
    }
}

/// The key of the signed-in ``Shopper`` among the request's typed values.
public enum CurrentShopper: RequestValueKey {
    public typealias Value = Shopper
}

extension RequestContext {
    /// The signed-in shopper, or `nil` for a visitor.
    public var shopper: Shopper? { self[CurrentShopper.self] }
}
