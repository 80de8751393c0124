import Crypto
import Foundation

/// Turns a session into a cookie value and back: `payload.signature`, both base64url, where the
/// signature is HMAC-SHA256 over the payload with the app's secret.
///
/// Anything that does not verify (a tampered value, a signature from another secret, garbage, an
/// expired session) decodes to `nil`, which the caller treats as an empty session: a bad cookie
/// is never an error page.
struct SessionCodec: Sendable {
    /// The raw secret; `SymmetricKey` is not `Sendable`, so one is made for each use.
    let secret: Data
    private var key: SymmetricKey { SymmetricKey(data: secret) }

    struct Payload: Codable, Equatable {
        var id: String
        var expires: Int64
        var values: [String: String]

        func isUnexpired(at now: Date) -> Bool {
            expires > Int64(now.timeIntervalSince1970)
        }
    }

    func encode(_ payload: Payload) -> String {
        let data = (try? JSONEncoder().encode(payload)) ?? Data()
        let signature = HMAC<SHA256>.authenticationCode(for: data, using: key)
        return Base64URL.encode(data) + "." + Base64URL.encode(Data(signature))
    }

    func decode(_ cookie: String, now: Date = Date()) -> Payload? {
        // Split at the dot over the UTF-8; a second dot fails the signature's base64url.
        let bytes = Substring(cookie).utf8
        guard bytes.count <= 4096, let dot = bytes.firstIndex(of: UInt8(ascii: ".")),
              let data = Base64URL.decode(Substring(bytes[..<dot])),
              let signature = Base64URL.decode(Substring(bytes[bytes.index(after: dot)...])),
              HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: data, using: key),
              let payload = try? JSONDecoder().decode(Payload.self, from: data),
              payload.isUnexpired(at: now)
        else { return nil }
        return payload
    }

    /// A new random identifier: 128 bits from the system's generator.
    static func newIdentifier() -> String {
        SymmetricKey(size: .bits128).withUnsafeBytes { Base64URL.encode(Data($0)) }
    }
}
