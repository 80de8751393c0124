import Crypto
import Foundation

/// Turns a session into a cookie value and back: a small versioned binary record, encrypted
/// and authenticated with AES-256-GCM under a key derived from the app's secret, all of it
/// base64url. Whoever holds the cookie can neither change nor read what the session keeps.
///
/// The cookie, before base64url:
///
/// | bytes | field |
/// |---|---|
/// | 1 | format version, ``version``, authenticated but not encrypted |
/// | 12 | nonce, random for every cookie written |
/// | any | the record, encrypted |
/// | 16 | GCM tag |
///
/// The record is a ``SessionRecord``.
///
/// Fixed fields and no JSON: a session is decoded for every request that sends its cookie and
/// encoded for every answer that sets one, and JSON's encoder and decoder were most of that
/// cost. Anything that does not open (a tampered value, a cookie from another secret, an older
/// format, garbage, an expired session) decodes to `nil`, which the caller treats as no cookie
/// at all: a bad cookie is never an error page, and the holder of an old one signs in again.
///
/// Random 96-bit nonces keep GCM safe for about 2³² cookies per key; rotating the secret
/// (``SessionConfiguration/init(secret:previousSecrets:cookieName:maxAge:secureCookies:hostPrefix:)``)
/// starts a new key long before that.
struct SessionCodec: Sendable {
    /// The raw secret, which also tells sessions sealed under it apart (``Session/Loaded``).
    let secret: Data
    /// The AES-256 key, derived once from the secret with HKDF-SHA256, so that the secret an
    /// operator types is never the cipher's key itself.
    private let derived: DerivedKey
    /// The cookies opened lately under this secret.
    private let verified = VerifiedCookies(capacity: 4096)

    init(secret: Data) {
        self.secret = secret
        self.derived = DerivedKey(
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: secret), info: Data("tessera session cookie v\(Self.version)".utf8), outputByteCount: 32))
    }

    /// The key, never changed after it is made, which makes sharing it between threads safe
    /// (swift-crypto does not mark `SymmetricKey` `Sendable`).
    private final class DerivedKey: @unchecked Sendable {
        let key: SymmetricKey
        init(_ key: SymmetricKey) { self.key = key }
    }

    /// The format this codec writes, and the only one it reads.
    static let version: UInt8 = 2
    /// The bytes in front of the ciphertext that GCM authenticates too: the version.
    private static let authenticatedHeader: [UInt8] = [version]
    private static let nonceLength = 12
    private static let tagLength = 16

    /// `record` encrypted and authenticated, with the version and nonce in front.
    func seal(_ record: [UInt8]) -> [UInt8] {
        // A fresh random nonce per cookie; sealing only fails for a nonce of another size, and
        // `combined` (nonce, ciphertext, tag) is there for the standard 12-byte nonce.
        guard let combined = try? AES.GCM.seal(record, using: derived.key, authenticating: Self.authenticatedHeader).combined else {
            preconditionFailure("AES-GCM sealing with a key of 32 bytes and a random 12-byte nonce")
        }
        var cookie: [UInt8] = []
        cookie.reserveCapacity(1 + combined.count)
        cookie.append(Self.version)
        cookie.append(contentsOf: combined)
        return cookie
    }

    /// The record in `cookie` when it is of this version and was sealed under this key.
    func open(_ cookie: [UInt8]) -> [UInt8]? {
        guard cookie.count >= 1 + Self.nonceLength + Self.tagLength, cookie[0] == Self.version,
            let box = try? AES.GCM.SealedBox(combined: cookie[1...]),
            let record = try? AES.GCM.open(box, using: derived.key, authenticating: Self.authenticatedHeader)
        else { return nil }
        return Array(record)
    }

    /// The cookie value; `payload` must have its id and token.
    func encode(_ payload: SessionRecord) -> String {
        Base64URL.encode(seal(payload.bytes))
    }

    /// The session in `cookie`, as ``decode(_:now:)`` reads it, from the cookies verified lately
    /// when it is one of them: a visitor's every request sends the same cookie.
    func payload(in cookie: String, now: Date = Date()) -> SessionRecord? {
        if let kept = verified.payload(for: cookie) { return kept.isUnexpired(at: now) ? kept : nil }
        guard let payload = decode(Substring(cookie), now: now) else { return nil }
        verified.keep(payload, for: cookie)
        return payload
    }

    /// The session in `cookie`, or `nil` when it is not one of ours, unchanged and unexpired.
    func decode(_ cookie: Substring, now: Date = Date()) -> SessionRecord? {
        guard cookie.utf8.count <= 4096, let sealed = Base64URL.decode(cookie), let record = open(sealed) else { return nil }
        return SessionRecord(bytes: record, now: now)
    }

    /// A new session id: 128 bits from the cryptographic generator.
    static func newIdentifier() -> [UInt8] {
        SecureRandomBytes.draw(SessionRecord.idLength)
    }

    /// A new CSRF token: 256 bits from the cryptographic generator.
    static func newToken() -> [UInt8] {
        SecureRandomBytes.draw(SessionRecord.tokenLength)
    }

    /// A new session's id and token, in one draw from the cryptographic generator.
    static func newIdentifierAndToken() -> (id: [UInt8], token: [UInt8]) {
        let bytes = SecureRandomBytes.draw(SessionRecord.idLength + SessionRecord.tokenLength)
        return (Array(bytes.prefix(SessionRecord.idLength)), Array(bytes.dropFirst(SessionRecord.idLength)))
    }
}
