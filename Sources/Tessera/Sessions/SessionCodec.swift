import Crypto
import Foundation

/// Turns a session into a cookie value and back: a small versioned binary record, signed with
/// HMAC-SHA256 under the app's secret, all of it base64url.
///
/// The record, integers big-endian:
///
/// | bytes | field |
/// |---|---|
/// | 1 | format version, ``version`` |
/// | 16 | session id |
/// | 8 | expiry, seconds since 1970 |
/// | 32 | CSRF token |
/// | any | entries: key length (1 byte, 1 to 255), key, value length (2 bytes), value; UTF-8 |
/// | 32 | HMAC-SHA256 of everything before it |
///
/// Fixed fields and no JSON: a session is decoded for every request that sends its cookie and
/// encoded for every answer that sets one, and JSON's encoder and decoder were most of that
/// cost. Anything that does not verify (a tampered value, a signature from another secret, an
/// older format, garbage, an expired session) decodes to `nil`, which the caller treats as no
/// cookie at all: a bad cookie is never an error page, and the holder of an old one signs in
/// again.
struct SessionCodec: Sendable {
    /// The raw secret, which also tells sessions signed under it apart (``Session/Loaded``).
    let secret: Data
    /// HMAC-SHA256 with the secret already keyed: keying costs two SHA-256 blocks, as much as
    /// signing a session, so it is done once and the keyed state copied for each use.
    private let keyed: KeyedMAC
    /// The cookies verified lately under this secret.
    private let verified = VerifiedCookies(capacity: 4096)

    init(secret: Data) {
        self.secret = secret
        self.keyed = KeyedMAC(HMAC<SHA256>(key: SymmetricKey(data: secret)))
    }

    /// The keyed HMAC, never changed after it is made: every use works on a copy (whose first
    /// update copies the digest state), which makes sharing it between threads safe.
    private final class KeyedMAC: @unchecked Sendable {
        let template: HMAC<SHA256>
        init(_ template: HMAC<SHA256>) { self.template = template }
    }

    private func signature(of bytes: some DataProtocol) -> HashedAuthenticationCode<SHA256> {
        var mac = keyed.template
        mac.update(data: bytes)
        return mac.finalize()
    }

    /// The format this codec writes, and the only one it reads.
    static let version: UInt8 = 1
    static let idLength = 16
    static let tokenLength = 32
    private static let signatureLength = 32
    private static let fixedLength = 1 + idLength + 8 + tokenLength

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
            Self.fixedLength + Self.signatureLength + payload.values.reduce(0) { $0 + 3 + $1.key.utf8.count + $1.value.utf8.count })
        record.append(Self.version)
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
        record.append(contentsOf: signature(of: record))
        return Base64URL.encode(record)
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
        guard cookie.utf8.count <= 4096, let record = Base64URL.decode(cookie),
            record.count >= Self.fixedLength + Self.signatureLength, record[0] == Self.version
        else { return nil }
        let signed = record.count - Self.signatureLength
        // Compared in constant time (swift-crypto's `==` for a code and bytes).
        guard signature(of: record[..<signed]) == record[signed...] else { return nil }
        var expires: Int64 = 0
        for byte in record[(1 + Self.idLength)..<(1 + Self.idLength + 8)] { expires = expires << 8 | Int64(byte) }
        var payload = Payload(
            id: Array(record[1..<(1 + Self.idLength)]),
            expires: expires,
            token: Array(record[(1 + Self.idLength + 8)..<Self.fixedLength]),
            values: [:]
        )
        guard payload.isUnexpired(at: now) else { return nil }
        var cursor = Self.fixedLength
        while cursor < signed {
            let keyLength = Int(record[cursor])
            let valueStart = cursor + 1 + keyLength + 2
            guard keyLength > 0, valueStart <= signed else { return nil }
            let valueLength = Int(record[valueStart - 2]) << 8 | Int(record[valueStart - 1])
            guard valueStart + valueLength <= signed,
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
