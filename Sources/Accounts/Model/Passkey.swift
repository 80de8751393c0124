public import Foundation

/// A passkey registered to an account: the credential the authenticator made, its public key,
/// and the signature counter last seen, which must go up at every sign-in.
public struct Passkey: Sendable, Equatable {
    /// The authenticator's name for the credential, up to 1,023 bytes.
    public let credentialID: [UInt8]
    public let userID: Int
    /// The ES256 public key, `04 ‖ x ‖ y`.
    public let publicKey: [UInt8]
    public var signCount: UInt32
    public let createdAt: Date
    public var lastUsedAt: Date?

    public init(credentialID: [UInt8], userID: Int, publicKey: [UInt8], signCount: UInt32, createdAt: Date, lastUsedAt: Date? = nil) {
        self.credentialID = credentialID
        self.userID = userID
        self.publicKey = publicKey
        self.signCount = signCount
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// What a challenge was issued for: it can be used for that ceremony only.
public enum PasskeyCeremony: String, Sendable {
    /// Adding a passkey to the signed-in account.
    case registration
    /// Signing in with a passkey.
    case signIn = "sign-in"
}
