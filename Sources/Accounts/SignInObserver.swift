public import Tessera

/// Something another module does when a shopper signs in, such as moving the visitor's
/// anonymous cart into the account's.
///
/// Accounts cannot know the modules that build on it, so they hand it observers through the
/// composition root (``AccountsModule/init(accounts:signInObservers:)``), the way the route table
/// keeps modules apart. Observers run after the new session is recorded, in the sign-in
/// request, before its redirect: what they write to the session goes out with it.
public protocol SignInObserver: Sendable {
    /// `shopper` has just signed in (registered, signed in, or signed in again after changing
    /// the password) in `context`'s session.
    func shopperSignedIn(_ shopper: Shopper, in context: RequestContext) async throws
}
