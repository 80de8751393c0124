/// What an authenticator signs (WebAuthn §6.1): the hash of the relying party's ID, the flags,
/// the signature counter, and at registration the new credential and its public key.
public struct AuthenticatorData: Sendable, Equatable {
    /// SHA-256 of the relying party ID the authenticator used.
    public let relyingPartyIDHash: [UInt8]
    /// The flag byte: user present (bit 0), user verified (bit 2), attested credential data (bit 6).
    public let flags: UInt8
    /// The signature counter; 0 from authenticators that keep none.
    public let signCount: UInt32
    /// The new credential, in a registration's data.
    public let credential: AttestedCredential?

    public var userPresent: Bool { flags & 0x01 != 0 }
    public var userVerified: Bool { flags & 0x04 != 0 }

    /// A registration's new credential.
    public struct AttestedCredential: Sendable, Equatable {
        public let aaguid: [UInt8]
        public let id: [UInt8]
        /// The credential's public key, a COSE key.
        let publicKey: CBOR
    }

    /// Parses `bytes`; extensions (flag bit 7) may follow and are not read.
    public init(_ bytes: [UInt8]) throws(PasskeyError) {
        guard bytes.count >= 37 else { throw .malformed("the authenticator data is \(bytes.count) bytes, less than 37") }
        relyingPartyIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        guard flags & 0x40 != 0 else {
            guard flags & 0x80 != 0 || bytes.count == 37 else { throw .malformed("bytes after the authenticator data") }
            credential = nil
            return
        }
        guard bytes.count >= 55 else { throw .malformed("the attested credential data is cut short") }
        let aaguid = Array(bytes[37..<53])
        let idLength = Int(bytes[53]) << 8 | Int(bytes[54])
        guard idLength <= 1023, bytes.count >= 55 + idLength else { throw .malformed("the credential ID is longer than the data") }
        let id = Array(bytes[55..<55 + idLength])
        var reader = CBORReader(bytes[(55 + idLength)...])
        let key: CBOR
        do {
            key = try reader.read()
        } catch {
            throw .malformed("the credential's public key is not CBOR: \(error)")
        }
        guard flags & 0x80 != 0 || reader.remaining.isEmpty else { throw .malformed("bytes after the credential's public key") }
        credential = AttestedCredential(aaguid: aaguid, id: id, publicKey: key)
    }
}
