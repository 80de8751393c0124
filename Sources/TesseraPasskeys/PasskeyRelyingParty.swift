import Crypto
import Foundation

/// The site's side of passkeys (WebAuthn Level 3, §7): it checks what a browser sends back from
/// `navigator.credentials.create()` and `.get()` against what the site asked for.
///
/// It holds no state: the app issues challenges, keeps each bound to the visitor's session until
/// it is used once, and stores credentials with their counters. Only ES256 keys (P-256) and the
/// attestation format "none" are accepted: the site asks for no attestation, so it trusts the
/// key, not the make of the authenticator.
public struct PasskeyRelyingParty: Sendable {
    /// The relying party ID: the site's domain (`shop.example.com`), or `localhost`. A passkey
    /// works on this domain and its subdomains only.
    public let id: String
    /// The name browsers show when a passkey is made.
    public let name: String
    /// Whether the authenticator must have verified the user (a PIN, a fingerprint, the device's
    /// screen lock), not only seen a touch: a passkey that signs in alone must be two factors in
    /// one, or a found security key would be enough. On by default.
    public let requiresUserVerification: Bool

    public init(id: String, name: String, requiresUserVerification: Bool = true) {
        self.id = id
        self.name = name
        self.requiresUserVerification = requiresUserVerification
    }

    /// A new challenge: 32 random bytes.
    public static func newChallenge() -> [UInt8] {
        Array(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    /// A passkey that a registration verified: what the store keeps.
    public struct Registered: Sendable, Equatable {
        public let credentialID: [UInt8]
        public let publicKey: PasskeyPublicKey
        public let signCount: UInt32
    }

    /// Checks a registration (§7.1): the client data is a `webauthn.create` from `origin` for
    /// the challenge the app issued (`issued`, which the app found by ``ClientData/challenge``
    /// and took from the session's), and the attestation object's data is for this relying party,
    /// with the user present and a new ES256 credential.
    public func verifyRegistration(
        clientData: ClientData, attestationObject: [UInt8], issued challenge: [UInt8], origin: String
    ) throws(PasskeyError) -> Registered {
        try check(clientData, type: "webauthn.create", challenge: challenge, origin: origin)
        let attestation: CBOR
        do {
            attestation = try CBORReader.decode(attestationObject)
        } catch {
            throw .malformed("the attestation object is not CBOR: \(error)")
        }
        guard case .text(let format) = attestation["fmt"], case .bytes(let authenticatorBytes) = attestation["authData"] else {
            throw .malformed("the attestation object has no fmt or authData")
        }
        guard format == "none" else { throw .malformed("the attestation format is \(format), not none") }
        let data = try AuthenticatorData(authenticatorBytes)
        try check(data)
        guard let credential = data.credential else { throw .malformed("the registration has no attested credential") }
        return Registered(credentialID: credential.id, publicKey: try PasskeyPublicKey(cose: credential.publicKey), signCount: data.signCount)
    }

    /// Checks a sign-in (§7.2) with a stored credential: the client data is a `webauthn.get` from
    /// `origin` for the issued challenge, the authenticator data is for this relying party with
    /// the user present, the signature verifies with the credential's key, and the counter went
    /// up (when either side counts). Returns the new counter, for the store.
    public func verifyAssertion(
        clientData: ClientData, authenticatorData: [UInt8], signature: [UInt8], issued challenge: [UInt8],
        origin: String, publicKey: PasskeyPublicKey, storedSignCount: UInt32
    ) throws(PasskeyError) -> UInt32 {
        try check(clientData, type: "webauthn.get", challenge: challenge, origin: origin)
        let data = try AuthenticatorData(authenticatorData)
        try check(data)
        guard publicKey.verifies(signature, of: authenticatorData + Array(SHA256.hash(data: clientData.json))) else { throw .badSignature }
        if data.signCount != 0 || storedSignCount != 0, data.signCount <= storedSignCount {
            throw .counterWentBack(stored: storedSignCount, received: data.signCount)
        }
        return data.signCount
    }

    private func check(_ clientData: ClientData, type: String, challenge: [UInt8], origin: String) throws(PasskeyError) {
        guard clientData.type == type else { throw .wrongType(clientData.type) }
        // Compared in constant time, as every secret the server checks.
        guard clientData.challenge.count == challenge.count,
            zip(clientData.challenge, challenge).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0
        else { throw .challengeNotIssued }
        guard clientData.origin == origin, !clientData.crossOrigin, Self.host(of: origin).map(isWithinID) == true else {
            throw .wrongOrigin(clientData.origin)
        }
    }

    private func check(_ data: AuthenticatorData) throws(PasskeyError) {
        guard data.relyingPartyIDHash == Array(SHA256.hash(data: Array(id.utf8))) else { throw .wrongRelyingParty }
        guard data.userPresent else { throw .userNotPresent }
        guard data.userVerified || !requiresUserVerification else { throw .userNotVerified }
    }

    /// Whether `host` is the relying party ID or one of its subdomains.
    private func isWithinID(_ host: String) -> Bool {
        host == id || host.hasSuffix("." + id)
    }

    /// `shop.example.com` from `https://shop.example.com:8443`.
    static func host(of origin: String) -> String? {
        guard let schemeEnd = origin.range(of: "://") else { return nil }
        let authority = origin[schemeEnd.upperBound...]
        if authority.hasPrefix("[") { return authority.firstIndex(of: "]").map { String(authority[...$0]) } }
        return String(authority.prefix { $0 != ":" && $0 != "/" }).lowercased()
    }
}
