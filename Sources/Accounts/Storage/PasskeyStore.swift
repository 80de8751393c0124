public import Foundation
public import Tessera

/// Where passkeys and their challenges live.
///
/// A challenge is kept on the server, bound to the session it was issued to and to one ceremony,
/// and ``take(_:for:sessionID:now:)`` removes it as it reads it: a challenge answers one
/// registration or sign-in, once, so a recorded answer sent again finds nothing.
public protocol PasskeyStore: Sendable {
    /// Keeps `challenge` for `sessionID` until `expiresAt`, in place of the session's earlier one
    /// for the same ceremony; `userID` is the account a registration is for.
    func issue(
        _ challenge: [UInt8], for ceremony: PasskeyCeremony, sessionID: String, userID: Int?, expiresAt: Date, within budget: DatabaseBudget)
        async throws
    /// Removes the challenge and says whom it was issued for (`.some(nil)` for a sign-in), or
    /// `nil` when this session has no such unexpired challenge for this ceremony.
    func take(_ challenge: [UInt8], for ceremony: PasskeyCeremony, sessionID: String, now: Date, within budget: DatabaseBudget) async throws -> Int??
    /// Adds a passkey; `false` when its credential is registered already.
    func insert(_ passkey: Passkey, within budget: DatabaseBudget) async throws -> Bool
    func passkey(credentialID: [UInt8], within budget: DatabaseBudget) async throws -> Passkey?
    /// The account's passkeys, oldest first.
    func passkeys(userID: Int, within budget: DatabaseBudget) async throws -> [Passkey]
    /// Records a sign-in: the counter goes from `old` to `new`, if it still is `old`; `false`
    /// when another sign-in moved it first.
    func recordSignIn(credentialID: [UInt8], from old: UInt32, to new: UInt32, at date: Date, within budget: DatabaseBudget) async throws -> Bool
}
