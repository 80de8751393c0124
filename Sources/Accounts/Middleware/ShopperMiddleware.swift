import Tessera

/// Reads who is signed in from the session, once per request, and attaches it as
/// `context.shopper` for every controller, region and layout after it.
///
/// Place it after ``SessionMiddleware`` and before ``ErrorPageMiddleware``, so error pages know
/// the shopper too. It also runs for requests the server refused, for the same reason.
public struct ShopperMiddleware: Middleware {
    public init() {}

    /// Attaches the signed-in shopper, if any, for everything after this step.
    public func before(_ context: inout RequestContext) throws -> Response? {
        context[CurrentShopper.self] = ShopperSession.shopper(in: context.session)
        return nil
    }

    /// Yes: an error page knows who is signed in.
    public var runsForRejectedRequests: Bool { true }
}

/// The session entries that say who is signed in; only Accounts reads or writes them.
enum ShopperSession {
    static let idKey = "userID"
    static let nameKey = "userName"

    static func shopper(in session: Session) -> Shopper? {
        guard let id = session[idKey].flatMap(Int.init), let name = session[nameKey] else { return nil }
        return Shopper(id: id, name: name)
    }

    /// Signs `user` in: a new session id first, so an id planted before sign-in is worthless.
    static func signIn(_ user: User, in context: RequestContext) {
        context.session.rotate()
        context.session[idKey] = String(user.id)
        context.session[nameKey] = user.name
    }

    /// Forgets the whole session (cart included), with a new id and a new form token.
    static func signOut(in context: RequestContext) {
        context.session.clear()
    }
}
