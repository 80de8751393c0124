import Foundation
public import Tessera

/// Reads who is signed in from the session, once per request, and attaches it as
/// `context.shopper` for every controller, region and layout after it.
///
/// The session cookie alone is not trusted to be signed in: the session must also not have
/// ended since (sign-out, a password change, its lifetime). That is checked in memory, against
/// the ends this instance knows of (``AccountsService/followSessionEnds()`` keeps them
/// current), so a signed-in request costs no round trip; a copied cookie is signed out here,
/// and the browser gets a fresh, anonymous session. Only while the copy may be missing an end
/// (before it first loaded, or while the database's announcements cannot be heard) does the
/// request wait for the database, off the server's thread (``NowOrLater/later(_:)``).
/// Visitors who are not signed in cost nothing.
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
    public func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
        guard let signedIn = ShopperSession.signedIn(in: context.session), let sessionID = context.session.id else { return .next }
        switch accounts.standing(of: sessionID, userID: signedIn.shopper.id, signedInAt: signedIn.since) {
        case .active:
            context[CurrentShopper.self] = signedIn.shopper
        case .ended:
            context.session.clear()
        case .unknown:
            let accounts = self.accounts
            return .later { context in
                if try await accounts.isSessionActive(
                    sessionID, userID: signedIn.shopper.id, signedInAt: signedIn.since, within: context.databaseBudget)
                {
                    context[CurrentShopper.self] = signedIn.shopper
                } else {
                    context.session.clear()
                }
                return nil
            }
        }
        return .next
    }

    /// Yes: an error page knows who is signed in.
    public var runsForRejectedRequests: Bool { true }
}

/// The session entries that say who is signed in, and since when; only Accounts reads or
/// writes them. The cookie is signed, so they are as the server wrote them.
enum ShopperSession {
    static let idKey = "userID"
    static let nameKey = "userName"
    static let staffKey = "staff"
    /// When the session signed in, in whole milliseconds since 1970.
    static let sinceKey = "signedInAt"

    static func signedIn(in session: Session) -> (shopper: Shopper, since: Date)? {
        guard let id = session[idKey].flatMap(Int.init), let name = session[nameKey],
            let milliseconds = session[sinceKey].flatMap(Int64.init)
        else { return nil }
        return (Shopper(id: id, name: name, isStaff: session[staffKey] == "1"), Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// Signs `user` in, as of `now`: a new session id first, so an id planted before sign-in
    /// is worthless. Nothing is written on the server: the signed cookie is the record, until
    /// the session ends.
    static func signIn(_ user: User, in context: RequestContext, at now: Date = Date()) {
        context.session.rotate()
        context.session[idKey] = String(user.id)
        context.session[nameKey] = user.name
        context.session[staffKey] = user.isStaff ? "1" : nil
        context.session[sinceKey] = String(Int64((now.timeIntervalSince1970 * 1000).rounded(.up)))
    }

    /// Ends the session on every instance, then forgets it here (cart included), with a new id
    /// and a new form token.
    static func signOut(in context: RequestContext, accounts: AccountsService) async throws {
        if let sessionID = context.session.id, let signedIn = signedIn(in: context.session) {
            try await accounts.endSession(sessionID, signedInAt: signedIn.since, within: context.databaseBudget)
        }
        context.session.clear()
    }
}
