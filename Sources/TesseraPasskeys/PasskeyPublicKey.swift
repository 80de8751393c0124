import Crypto

/// A passkey's public key: ES256, ECDSA on P-256 with SHA-256, the one algorithm the relying
/// party asks for (COSE algorithm -7). Stored as its 65-byte uncompressed point.
public struct PasskeyPublicKey: Sendable, Equatable {
    /// `04 ‖ x ‖ y`, what a store keeps; checked to be a point on the curve when made.
    public let uncompressedPoint: [UInt8]

    /// The key in a COSE key map (RFC 9053): `kty` 2 (EC2), `alg` -7, `crv` 1 (P-256), `x` and `y`.
    init(cose: CBOR) throws(PasskeyError) {
        guard cose[1]?.int == 2 else { throw .unsupportedKey("the key is not an elliptic-curve key (kty 2)") }
        guard cose[3]?.int == -7 else { throw .unsupportedKey("the key's algorithm is not ES256 (-7)") }
        guard cose[-1]?.int == 1 else { throw .unsupportedKey("the key's curve is not P-256 (1)") }
        guard case .bytes(let x) = cose[-2], case .bytes(let y) = cose[-3], x.count == 32, y.count == 32 else {
            throw .unsupportedKey("the key's coordinates are not 32 bytes each")
        }
        try self.init(uncompressedPoint: [0x04] + x + y)
    }

    /// The key as ``uncompressedPoint`` stored it.
    public init(uncompressedPoint: [UInt8]) throws(PasskeyError) {
        guard (try? P256.Signing.PublicKey(x963Representation: uncompressedPoint)) != nil else {
            throw .unsupportedKey("the key is not a point on P-256")
        }
        self.uncompressedPoint = uncompressedPoint
    }

    /// Whether `signature` (DER, as WebAuthn sends ES256 signatures) signs `message`.
    public func verifies(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard let key = try? P256.Signing.PublicKey(x963Representation: uncompressedPoint),
            let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature)
        else { return false }
        return key.isValidSignature(parsed, for: message)
    }
}
