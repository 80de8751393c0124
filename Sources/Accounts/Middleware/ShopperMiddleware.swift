import Tessera

/// Reads who is signed in from the session, once per request, and attaches it as
/// `context.shopper` for every controller, region and layout after it.
///
/// The session cookie alone is not trusted to be signed in: the session must also still be
/// active on the server (``AccountsService/isSessionActive(_:userID:)``). A cookie copied
/// before sign-out or before a password change is therefore signed out here, and the browser
/// gets a fresh, anonymous session. Visitors who are not signed in cost no lookup.
///
/// Place it after ``SessionMiddleware`` and before ``ErrorPageMiddleware``, so error pages know
/// the shopper too. It also runs for requests the server refused, for the same reason.
public struct ShopperMiddleware: Middleware {
    let accounts: AccountsService

    /// Checks signed-in sessions against `accounts`.
    public init(accounts: AccountsService) {
        self.accounts = accounts
    }

    /// Attaches the signed-in shopper, if any and still signed in, for everything after this step.
    public func before(_ context: inout RequestContext) throws -> Response? {
        guard let shopper = ShopperSession.shopper(in: context.session), let sessionID = context.session.id else { return nil }
        if try accounts.isSessionActive(sessionID, userID: shopper.id) {
            context[CurrentShopper.self] = shopper
        } else {
            context.session.clear()
        }
        return nil
    }

    /// Yes: an error page knows who is signed in.
    public var runsForRejectedRequests: Bool { true }
}

/// The session entries that say who is signed in; only Accounts reads or writes them.
enum ShopperSession {
    static let idKey = "userID"
    static let nameKey = "userName"
    static let staffKey = "staff"

    static func shopper(in session: Session) -> Shopper? {
        guard let id = session[idKey].flatMap(Int.init), let name = session[nameKey] else { return nil }
        return Shopper(id: id, name: name, isStaff: session[staffKey] == "1")
    }

    /// Signs `user` in: a new session id first, so an id planted before sign-in is worthless,
    /// recorded on the server as active.
    static func signIn(_ user: User, in context: RequestContext, accounts: AccountsService) async throws {
        context.session.rotate()
        guard let sessionID = context.session.id else { return }
        try await accounts.startSession(sessionID, userID: user.id)
        context.session[idKey] = String(user.id)
        context.session[nameKey] = user.name
        context.session[staffKey] = user.isStaff ? "1" : nil
    }

    /// Ends the session on the server, then forgets it here (cart included), with a new id and a
    /// new form token.
    static func signOut(in context: RequestContext, accounts: AccountsService) async throws {
        if let sessionID = context.session.id { try await accounts.endSession(sessionID) }
        context.session.clear()
    }
}
