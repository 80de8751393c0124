public import Tessera

/// Who is signed in, as every page of the request sees it: loaded from the session once, by
/// ``ShopperMiddleware``, and read as `context.shopper` by any module.
public struct Shopper: Sendable, Equatable {
    /// The account's number: what orders and carts belong to.
    public let id: Int
    /// The name the layout greets them with.
    public let name: String
    /// Whether the account is staff's, as it was when they signed in: the back office is theirs.
    public let isStaff: Bool

    /// A signed-in shopper, as the session middleware makes one from the cookie, or a test does.
    public init(id: Int, name: String, isStaff: Bool = false) {
        self.id = id
        self.name = name
        self.isStaff = isStaff
    }
}

/// The key of the signed-in ``Shopper`` among the request's typed values.
public enum CurrentShopper: RequestValueKey {
    /// The signed-in shopper, absent for a visitor.
    public typealias Value = Shopper
}

extension RequestContext {
    /// The signed-in shopper, or `nil` for a visitor.
    public var shopper: Shopper? { self[CurrentShopper.self] }
}
