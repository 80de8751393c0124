import Crypto
import Tessera

/// A passkey authenticator in software, for tests of an app's passkey pages without a browser:
/// it makes ES256 credentials with attestation "none" and signs assertions, as a browser and
/// its authenticator would (the same bytes, the same rules), counter included.
///
/// Its fields can be bent to make the answers a relying party must refuse: another relying
/// party ID (`relyingPartyID`), a page of another origin, a counter that goes back.
public struct SoftwareAuthenticator: Sendable {
    /// The relying party ID it signs for: SHA-256 of it starts the authenticator data.
    public var relyingPartyID: String
    /// The credential's ID, 16 random bytes.
    public let credentialID: [UInt8]
    /// The signature counter; each assertion adds one first.
    public var counter: UInt32 = 0
    /// The private key's 32 bytes (swift-crypto's key type is not `Sendable`).
    private let keyBytes = Array(P256.Signing.PrivateKey().rawRepresentation)
    private var key: P256.Signing.PrivateKey { try! P256.Signing.PrivateKey(rawRepresentation: keyBytes) }

    public init(relyingPartyID: String) {
        self.relyingPartyID = relyingPartyID
        credentialID = Array(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
    }

    /// The client data JSON a browser on `origin` writes for `type` and `challenge`.
    public func clientData(_ type: String, challenge: [UInt8], origin: String) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    /// The authenticator data: the relying party ID's hash, `flags` (user present and verified
    /// by default), the counter, and with `attested` the credential and its COSE key.
    public func authenticatorData(flags: UInt8 = 0x05, attested: Bool) -> [UInt8] {
        var data = Array(SHA256.hash(data: Array(relyingPartyID.utf8))) + [flags | (attested ? 0x40 : 0)]
        data += withUnsafeBytes(of: counter.bigEndian) { Array($0) }
        guard attested else { return data }
        let point = Array(key.publicKey.x963Representation)
        data += [UInt8](repeating: 0, count: 16) + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID
        // The COSE key {1: 2, 3: -7, -1: 1, -2: x, -3: y}.
        data += [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20] + point[1...32] + [0x22, 0x58, 0x20] + point[33...64]
        return data
    }

    /// A registration's attestation object: `{"fmt": "none", "attStmt": {}, "authData": …}`.
    public func attestationObject(flags: UInt8 = 0x05) -> [UInt8] {
        let data = authenticatorData(flags: flags, attested: true)
        return [0xA3, 0x63] + Array("fmt".utf8) + [0x64] + Array("none".utf8) + [0x67] + Array("attStmt".utf8) + [0xA0]
            + [0x68] + Array("authData".utf8) + [0x59, UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
    }

    /// What `navigator.credentials.create()` answers on `origin` for `challenge`.
    public func registration(challenge: [UInt8], origin: String) -> (clientData: [UInt8], attestationObject: [UInt8]) {
        (clientData("webauthn.create", challenge: challenge, origin: origin), attestationObject())
    }

    /// What `navigator.credentials.get()` answers on `origin` for `challenge`, counting one more
    /// use: the client data, the authenticator data and the DER signature over both.
    public mutating func assertion(
        challenge: [UInt8], origin: String, flags: UInt8 = 0x05
    )
        -> (clientData: [UInt8], authenticatorData: [UInt8], signature: [UInt8])
    {
        counter += 1
        let clientData = clientData("webauthn.get", challenge: challenge, origin: origin)
        let data = authenticatorData(flags: flags, attested: false)
        let signature = try! key.signature(for: data + Array(SHA256.hash(data: clientData)))
        return (clientData, data, Array(signature.derRepresentation))
    }
}
