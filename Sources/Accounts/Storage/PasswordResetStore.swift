public import Foundation
public import Tessera
public import TesseraMail
import TesseraMailSQLite
import TesseraSQLite

/// Where password resets are kept: each link's token as its SHA-256, for one account, until it
/// expires or is used. The writes that must not come apart share a transaction: a reset and its
/// mail (the outbox is in the same database), and a reset's use, the new password and the end of
/// every session of the account.
public protocol PasswordResetStore: Sendable {
    /// Keeps a reset of `userID`'s password under `digest` until `expiresAt`, and puts `mail`
    /// in the outbox, together; forgets resets that expired a day before `now`. Does nothing and
    /// returns `false` when an unused reset of the account expires after `recent` (one issued a
    /// moment ago): a form sent twice at once mails one link.
    func issue(
        digest: String, userID: Int, expiresAt: Date, unlessOneExpiresAfter recent: Date, mail: OutgoingMail, now: Date, within budget: DatabaseBudget
    ) async throws
        -> Bool

    /// The account of the reset `digest` when it is unused and unexpired at `now`, else `nil`.
    func usableReset(_ digest: String, at now: Date, within budget: DatabaseBudget) async throws -> Int?

    /// When the reset `digest` was used, if it was.
    func usedAt(_ digest: String, within budget: DatabaseBudget) async throws -> Date?

    /// Uses the reset `digest`, if it is still usable at `now`, with one conditional update, so
    /// that of two uses at once only one wins; then sets the account's `passwordHash`, uses its
    /// other resets, and ends every session of the account signed in before `now`, all in one
    /// transaction (forgetting the ends of sign-ins before `oldestSignIn`, as ``AccountsStore`` does).
    /// Returns the account, or `nil` when the reset was not usable and nothing changed.
    func redeem(
        _ digest: String, at now: Date, passwordHash: String, forgettingSignInsBefore oldestSignIn: Date, within budget: DatabaseBudget
    ) async throws -> Int?
}
