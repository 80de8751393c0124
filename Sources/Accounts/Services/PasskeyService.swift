public import Foundation
public import Tessera
public import TesseraPasskeys

/// Passkeys for accounts: a signed-in shopper adds one, then signs in with it, no password.
///
/// Each ceremony is two requests. The first issues a challenge, kept on the server for five
/// minutes and bound to the visitor's session and to the ceremony; the browser's answer to it
/// is checked by ``PasskeyRelyingParty`` and takes the challenge, so it works once. Passkeys are
/// discoverable: signing in needs no e-mail, the authenticator offers the shop's passkeys.
public struct PasskeyService: Sendable {
    let relyingParty: PasskeyRelyingParty
    let store: any PasskeyStore
    let accounts: AccountsService
    let now: @Sendable () -> Date

    /// How long a challenge waits for its answer: the browser's own timeout, and a little more.
    static let challengeLifetime: TimeInterval = 300

    public init(
        relyingParty: PasskeyRelyingParty, store: any PasskeyStore, accounts: AccountsService, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.relyingParty = relyingParty
        self.store = store
        self.accounts = accounts
        self.now = now
    }

    /// The options `navigator.credentials.create()` takes, in WebAuthn's JSON form, for adding a
    /// passkey to `user`'s account from session `sessionID`.
    public func registrationOptions(for user: User, sessionID: String, within budget: DatabaseBudget) async throws -> PasskeyCreationOptions {
        let challenge = PasskeyRelyingParty.newChallenge()
        try await store.issue(
            challenge, for: .registration, sessionID: sessionID, userID: user.id, expiresAt: now() + Self.challengeLifetime, within: budget)
        let existing = try await store.passkeys(userID: user.id, within: budget)
        return PasskeyCreationOptions(
            challenge: Base64URL.encode(challenge),
            rp: .init(id: relyingParty.id, name: relyingParty.name),
            user: .init(id: Base64URL.encode(Self.userHandle(user.id)), name: user.email, displayName: user.name),
            excludeCredentials: existing.map { .init(id: Base64URL.encode($0.credentialID)) }
        )
    }

    /// Checks the browser's answer (base64url fields) and adds the passkey to the account the
    /// challenge was issued for, which must be `userID`'s.
    public func register(
        clientDataJSON: String, attestationObject: String, userID: Int, sessionID: String, origin: String, within budget: DatabaseBudget
    ) async throws -> Passkey {
        let clientData = try ClientData(json: try Self.bytes(clientDataJSON))
        guard let issuedFor = try await store.take(clientData.challenge, for: .registration, sessionID: sessionID, now: now(), within: budget),
            issuedFor == userID
        else { throw PasskeyError.challengeNotIssued }
        let registered = try relyingParty.verifyRegistration(
            clientData: clientData, attestationObject: try Self.bytes(attestationObject),
            issued: clientData.challenge, origin: origin)
        let passkey = Passkey(
            credentialID: registered.credentialID, userID: userID, publicKey: registered.publicKey.uncompressedPoint,
            signCount: registered.signCount, createdAt: now())
        guard try await store.insert(passkey, within: budget) else { throw PasskeyError.alreadyRegistered }
        return passkey
    }

    /// The options `navigator.credentials.get()` takes, for signing in from session `sessionID`.
    public func signInOptions(sessionID: String, within budget: DatabaseBudget) async throws -> PasskeyRequestOptions {
        let challenge = PasskeyRelyingParty.newChallenge()
        try await store.issue(challenge, for: .signIn, sessionID: sessionID, userID: nil, expiresAt: now() + Self.challengeLifetime, within: budget)
        return PasskeyRequestOptions(challenge: Base64URL.encode(challenge), rpId: relyingParty.id)
    }

    /// Checks the browser's answer (base64url fields) and returns the account whose passkey
    /// signed it, after recording the passkey's new counter.
    public func signIn(
        credentialID: String, clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String?,
        sessionID: String, origin: String, within budget: DatabaseBudget
    ) async throws -> User {
        let clientData = try ClientData(json: try Self.bytes(clientDataJSON))
        guard try await store.take(clientData.challenge, for: .signIn, sessionID: sessionID, now: now(), within: budget) != nil else {
            throw PasskeyError.challengeNotIssued
        }
        guard let passkey = try await store.passkey(credentialID: try Self.bytes(credentialID), within: budget) else {
            throw PasskeyError.unknownCredential
        }
        if let userHandle, !userHandle.isEmpty, try Self.bytes(userHandle) != Self.userHandle(passkey.userID) {
            throw PasskeyError.unknownCredential
        }
        let count = try relyingParty.verifyAssertion(
            clientData: clientData, authenticatorData: try Self.bytes(authenticatorData), signature: try Self.bytes(signature),
            issued: clientData.challenge, origin: origin, publicKey: try PasskeyPublicKey(uncompressedPoint: passkey.publicKey),
            storedSignCount: passkey.signCount)
        // From the counter this check saw: two sign-ins racing with one counter value cannot both pass.
        guard try await store.recordSignIn(credentialID: passkey.credentialID, from: passkey.signCount, to: count, at: now(), within: budget) else {
            throw PasskeyError.counterWentBack(stored: passkey.signCount, received: count)
        }
        guard let user = try await accounts.user(id: passkey.userID, within: budget) else { throw PasskeyError.unknownCredential }
        return user
    }

    /// The account's passkeys, for its page.
    public func passkeys(of userID: Int, within budget: DatabaseBudget) async throws -> [Passkey] {
        try await store.passkeys(userID: userID, within: budget)
    }

    /// The account as its passkeys name it (WebAuthn's user handle): the account number's 8
    /// bytes, which say nothing about the person.
    static func userHandle(_ userID: Int) -> [UInt8] {
        withUnsafeBytes(of: Int64(userID).bigEndian) { Array($0) }
    }

    private static func bytes(_ base64URL: String) throws(PasskeyError) -> [UInt8] {
        guard base64URL.utf8.count <= 16_384, let bytes = Base64URL.decode(Substring(base64URL)) else {
            throw .malformed("a field is not base64url")
        }
        return bytes
    }
}

/// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn L3 §5.4): what the page's script hands to
/// `navigator.credentials.create()`, binary fields in base64url.
public struct PasskeyCreationOptions: Encodable, Sendable {
    public struct RelyingParty: Encodable, Sendable {
        public let id: String
        public let name: String
    }
    public struct UserEntity: Encodable, Sendable {
        public let id: String
        public let name: String
        public let displayName: String
    }
    public struct Parameters: Encodable, Sendable {
        public var type = "public-key"
        public var alg = -7
    }
    public struct Descriptor: Encodable, Sendable {
        public var type = "public-key"
        public let id: String
    }
    public struct Selection: Encodable, Sendable {
        public var residentKey = "required"
        public var requireResidentKey = true
        public var userVerification = "required"
    }

    public let challenge: String
    public let rp: RelyingParty
    public let user: UserEntity
    public var pubKeyCredParams = [Parameters()]
    public var timeout = 240_000
    public var attestation = "none"
    public var authenticatorSelection = Selection()
    public let excludeCredentials: [Descriptor]
}

/// `PublicKeyCredentialRequestOptionsJSON`: what the sign-in page's script hands to
/// `navigator.credentials.get()`. No credentials are listed: the authenticator offers the
/// shop's discoverable passkeys, so the shopper types nothing.
public struct PasskeyRequestOptions: Encodable, Sendable {
    public let challenge: String
    public let rpId: String
    public var timeout = 240_000
    public var userVerification = "required"
}
