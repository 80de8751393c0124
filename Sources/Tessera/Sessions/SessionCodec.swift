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
/// The record, integers big-endian:
///
/// | bytes | field |
/// |---|---|
/// | 16 | session id |
/// | 8 | expiry, seconds since 1970 |
/// | 32 | CSRF token |
/// | any | entries: key length (1 byte, 1 to 255), key, value length (2 bytes), value; UTF-8 |
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
    static let idLength = 16
    static let tokenLength = 32
    /// The bytes in front of the ciphertext that GCM authenticates too: the version.
    private static let authenticatedHeader: [UInt8] = [version]
    private static let nonceLength = 12
    private static let tagLength = 16
    private static let fixedLength = idLength + 8 + tokenLength

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

    /// A session as its cookie holds it.
    struct Payload: Equatable, Sendable {
        /// The session's id, ``SessionCodec/idLength`` random bytes; empty until drawn.
        var id: [UInt8]
        var expires: Int64
        /// The CSRF token of its forms, ``SessionCodec/tokenLength`` random bytes; empty until drawn.
        var token: [UInt8]
        var values: [String: String]

        func isUnexpired(at now: Date) -> Bool {
            expires > Int64(now.timeIntervalSince1970)
        }
    }

    /// The cookie value; `payload` must have its id and token.
    func encode(_ payload: Payload) -> String {
        precondition(payload.id.count == Self.idLength && payload.token.count == Self.tokenLength, "a saved session has its id and token")
        var record: [UInt8] = []
        record.reserveCapacity(
            Self.fixedLength + payload.values.reduce(0) { $0 + 3 + $1.key.utf8.count + $1.value.utf8.count })
        record.append(contentsOf: payload.id)
        withUnsafeBytes(of: payload.expires.bigEndian) { record.append(contentsOf: $0) }
        record.append(contentsOf: payload.token)
        for (key, value) in payload.values {
            let keyBytes = key.utf8, valueBytes = value.utf8
            // The session's API holds short strings (ids, counts, names): longer ones are not kept.
            guard (1...255).contains(keyBytes.count), valueBytes.count <= Int(UInt16.max) else {
                assertionFailure("session entry too long to keep: \(key)")
                continue
            }
            record.append(UInt8(keyBytes.count))
            record.append(contentsOf: keyBytes)
            withUnsafeBytes(of: UInt16(valueBytes.count).bigEndian) { record.append(contentsOf: $0) }
            record.append(contentsOf: valueBytes)
        }
        return Base64URL.encode(seal(record))
    }

    /// The session in `cookie`, as ``decode(_:now:)`` reads it, from the cookies verified lately
    /// when it is one of them: a visitor's every request sends the same cookie.
    func payload(in cookie: String, now: Date = Date()) -> Payload? {
        if let kept = verified.payload(for: cookie) { return kept.isUnexpired(at: now) ? kept : nil }
        guard let payload = decode(Substring(cookie), now: now) else { return nil }
        verified.keep(payload, for: cookie)
        return payload
    }

    /// The session in `cookie`, or `nil` when it is not one of ours, unchanged and unexpired.
    func decode(_ cookie: Substring, now: Date = Date()) -> Payload? {
        guard cookie.utf8.count <= 4096, let sealed = Base64URL.decode(cookie), let record = open(sealed), record.count >= Self.fixedLength
        else { return nil }
        var expires: Int64 = 0
        for byte in record[Self.idLength..<(Self.idLength + 8)] { expires = expires << 8 | Int64(byte) }
        var payload = Payload(
            id: Array(record[0..<Self.idLength]),
            expires: expires,
            token: Array(record[(Self.idLength + 8)..<Self.fixedLength]),
            values: [:]
        )
        guard payload.isUnexpired(at: now) else { return nil }
        var cursor = Self.fixedLength
        while cursor < record.count {
            let keyLength = Int(record[cursor])
            let valueStart = cursor + 1 + keyLength + 2
            guard keyLength > 0, valueStart <= record.count else { return nil }
            let valueLength = Int(record[valueStart - 2]) << 8 | Int(record[valueStart - 1])
            guard valueStart + valueLength <= record.count,
                let key = String(validating: record[(cursor + 1)..<(cursor + 1 + keyLength)], as: UTF8.self),
                let value = String(validating: record[valueStart..<(valueStart + valueLength)], as: UTF8.self)
            else { return nil }
            payload.values[key] = value
            cursor = valueStart + valueLength
        }
        return payload
    }

    /// A new session id: 128 bits from the cryptographic generator.
    static func newIdentifier() -> [UInt8] {
        SecureRandomBytes.draw(idLength)
    }

    /// A new CSRF token: 256 bits from the cryptographic generator.
    static func newToken() -> [UInt8] {
        SecureRandomBytes.draw(tokenLength)
    }

    /// A new session's id and token, in one draw from the cryptographic generator.
    static func newIdentifierAndToken() -> (id: [UInt8], token: [UInt8]) {
        let bytes = SecureRandomBytes.draw(idLength + tokenLength)
        return (Array(bytes.prefix(idLength)), Array(bytes.dropFirst(idLength)))
    }
}
