public import Foundation
public import Tessera

/// Where accounts live; services see only this protocol.
///
/// It also keeps the *session ends*: the session cookie is signed but kept by the browser, so
/// only a record on the server can make a copied cookie worthless after sign-out or a password
/// change. Each instance keeps a copy of them in memory (``SessionEndsReplica``); the store is
/// where they are written, loaded from, and heard of as other instances write them.
public protocol AccountsStore: Sendable {
    func user(id: Int, within budget: DatabaseBudget) async throws -> User?
    func user(email: String, within budget: DatabaseBudget) async throws -> User?
    /// Inserts a user; `nil` when the e-mail is taken.
    func insert(email: String, name: String, passwordHash: String, isStaff: Bool, within budget: DatabaseBudget) async throws -> User?
    /// Replaces a user's password hash.
    func updatePasswordHash(userID: Int, to passwordHash: String, within budget: DatabaseBudget) async throws
    /// Gives the account `email` if its e-mail is still `old`; `false` when it is not, or
    /// another account has `email`.
    func updateEmail(userID: Int, from old: String, to email: String, within budget: DatabaseBudget) async throws -> Bool
    /// Sets whether the account is staff and, in the same transaction, records `end` (every one
    /// of its sessions, whose cookies say what the rights were): no moment has the rights
    /// changed and an old cookie still good. `false`, changing and ending nothing, when there is
    /// no such account or it has that standing already: of two changes sent at once, one acts.
    func updateStaff(
        userID: Int, isStaff: Bool, recording end: SessionEnd, forgettingSignInsBefore oldestSignIn: Date, within budget: DatabaseBudget
    ) async throws -> Bool
    /// Every account that is staff, by name.
    func staffMembers(within budget: DatabaseBudget) async throws -> [User]

    /// Records an end, and forgets those of sign-ins before `oldestSignIn`, which no session in
    /// use can need any more.
    func record(_ end: SessionEnd, forgettingSignInsBefore oldestSignIn: Date, within budget: DatabaseBudget) async throws
    /// Every end recorded for sign-ins since `oldestSignIn`.
    func sessionEnds(signedInSince oldestSignIn: Date, within budget: DatabaseBudget) async throws -> SessionEnds
    /// Whether one session has ended, asked of the store itself: for the moments the copy in
    /// memory may be missing an end.
    func hasEnded(_ sessionID: String, userID: Int, signedInAt: Date, within budget: DatabaseBudget) async throws -> Bool
    /// Hears of the ends other instances record, until the task is cancelled.
    ///
    /// `started` runs each time hearing begins, at first and again after an interruption,
    /// before anything heard since is `received`; `interrupted` runs when hearing stops (a lost
    /// connection), since ends may be missed until it starts again. A store no other instance
    /// writes calls `started` once and waits.
    func followSessionEnds(
        started: @escaping @Sendable () async -> Void, received: @escaping @Sendable (SessionEnd) -> Void,
        interrupted: @escaping @Sendable () -> Void) async
}
