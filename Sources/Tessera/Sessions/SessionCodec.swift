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
/// | 1 | format version, ``version`` (or ``olderVersion``), authenticated but not encrypted |
/// | 12 | nonce, random for every cookie written |
/// | any | the record, encrypted |
/// | 16 | GCM tag |
///
/// The record is a ``SessionRecord``.
///
/// Fixed fields and no JSON: a session is decoded for every request that sends its cookie and
/// encoded for every answer that sets one, and JSON's encoder and decoder were most of that
/// cost. Anything that does not open (a tampered value, a cookie from another secret, an older
/// format than ``olderVersion``, garbage, an expired session) decodes to `nil`, which the caller
/// treats as no cookie at all: a bad cookie is never an error page, and the holder of an old one
/// signs in again. A cookie of ``olderVersion`` opens, and its answer seals it again in ``version``.
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
    /// The key of ``olderVersion``'s cookies, derived the same way with its version.
    private let olderDerived: DerivedKey
    /// The cookies opened lately under this secret, in the current format.
    private let verified = VerifiedCookies(capacity: 4096)

    init(secret: Data) {
        self.secret = secret
        self.derived = Self.key(from: secret, version: Self.version)
        self.olderDerived = Self.key(from: secret, version: Self.olderVersion)
    }

    private static func key(from secret: Data, version: UInt8) -> DerivedKey {
        DerivedKey(
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: secret), info: Data("tessera session cookie v\(version)".utf8), outputByteCount: 32))
    }

    /// The key, never changed after it is made, which makes sharing it between threads safe
    /// (swift-crypto does not mark `SymmetricKey` `Sendable`).
    private final class DerivedKey: @unchecked Sendable {
        let key: SymmetricKey
        init(_ key: SymmetricKey) { self.key = key }
    }

    /// The format this codec writes: records without a form token.
    static let version: UInt8 = 3
    /// The format before it, which it still reads: records with a form token (SessionRecord).
    static let olderVersion: UInt8 = 2
    private static let nonceLength = 12
    private static let tagLength = 16

    /// `record` encrypted and authenticated, with the version and nonce in front; in `version`
    /// (the current one, or the older one for a test of the cookies still in the wild).
    func seal(_ record: [UInt8], version: UInt8 = Self.version) -> [UInt8] {
        // A fresh random nonce per cookie; sealing only fails for a nonce of another size, and
        // `combined` (nonce, ciphertext, tag) is there for the standard 12-byte nonce.
        let key = (version == Self.version ? derived : olderDerived).key
        guard let combined = try? AES.GCM.seal(record, using: key, authenticating: [version]).combined else {
            preconditionFailure("AES-GCM sealing with a key of 32 bytes and a random 12-byte nonce")
        }
        var cookie: [UInt8] = []
        cookie.reserveCapacity(1 + combined.count)
        cookie.append(version)
        cookie.append(contentsOf: combined)
        return cookie
    }

    /// The record in `cookie` when it was sealed under this key, in this version or the one
    /// before (`isOlder`).
    func open(_ cookie: [UInt8]) -> (record: [UInt8], isOlder: Bool)? {
        guard cookie.count >= 1 + Self.nonceLength + Self.tagLength, cookie[0] == Self.version || cookie[0] == Self.olderVersion,
            let box = try? AES.GCM.SealedBox(combined: cookie[1...])
        else { return nil }
        let isOlder = cookie[0] == Self.olderVersion
        guard let record = try? AES.GCM.open(box, using: (isOlder ? olderDerived : derived).key, authenticating: [cookie[0]]) else { return nil }
        return (Array(record), isOlder)
    }

    /// The cookie value; `payload` must have its id.
    func encode(_ payload: SessionRecord) -> String {
        Base64URL.encode(seal(payload.bytes))
    }

    /// The session in `cookie`, as ``decode(_:now:)`` reads it, from the cookies verified lately
    /// when it is one of them (a visitor's every request sends the same cookie); `isOlder` when
    /// it is of the older format, which its answer seals again.
    func payload(in cookie: String, now: Date = Date()) -> (record: SessionRecord, isOlder: Bool)? {
        if let kept = verified.payload(for: cookie) { return kept.isUnexpired(at: now) ? (kept, false) : nil }
        guard let opened = decode(Substring(cookie), now: now) else { return nil }
        if !opened.isOlder { verified.keep(opened.record, for: cookie) }
        return opened
    }

    /// The session in `cookie`, or `nil` when it is not one of ours, unchanged and unexpired.
    func decode(_ cookie: Substring, now: Date = Date()) -> (record: SessionRecord, isOlder: Bool)? {
        guard cookie.utf8.count <= 4096, let sealed = Base64URL.decode(cookie), let opened = open(sealed),
            let record = SessionRecord(bytes: opened.record, now: now, withOlderToken: opened.isOlder)
        else { return nil }
        return (record, opened.isOlder)
    }

    /// A new session id: 128 bits from the cryptographic generator.
    static func newIdentifier() -> [UInt8] {
        SecureRandomBytes.draw(SessionRecord.idLength)
    }
}
