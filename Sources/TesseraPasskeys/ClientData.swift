import Foundation
import Tessera

/// The browser's account of a ceremony (WebAuthn §5.8.1): which ceremony, the challenge it
/// answered, and the page's origin. The authenticator signs its hash, so none of it can be
/// changed after the fact; the relying party checks each field against what it expects.
public struct ClientData: Sendable, Equatable {
    /// `webauthn.create` or `webauthn.get`.
    public let type: String
    /// The challenge, decoded from base64url.
    public let challenge: [UInt8]
    /// `https://shop.example.com`: the page that asked.
    public let origin: String
    /// Whether the page was in a frame of another origin.
    public let crossOrigin: Bool
    /// The JSON as the browser sent it: its SHA-256 is what was signed.
    public let json: [UInt8]

    public init(json: [UInt8]) throws(PasskeyError) {
        struct Fields: Decodable {
            let type: String
            let challenge: String
            let origin: String
            let crossOrigin: Bool?
        }
        guard json.count <= 4096, let fields = try? JSONDecoder().decode(Fields.self, from: Data(json)) else {
            throw .malformed("the client data is not WebAuthn's JSON")
        }
        guard let challenge = Base64URL.decode(Substring(fields.challenge)) else { throw .malformed("the client data's challenge is not base64url") }
        self.type = fields.type
        self.challenge = Array(challenge)
        self.origin = fields.origin
        self.crossOrigin = fields.crossOrigin ?? false
        self.json = json
    }
}
