import Crypto
import Foundation
public import Tessera

/// The secret of a password reset link, `/password/reset/{token}`: 32 random bytes in
/// base64url (43 characters). Only its ``digest`` is stored, so a copy of the database resets
/// nothing; any other spelling is not a token, and the route does not match (404).
public struct PasswordResetToken: PathParameter, Hashable {
    /// The token as the link spells it.
    public let text: String

    /// A new token from the system's random source.
    public static func random() -> PasswordResetToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let text = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return PasswordResetToken(checked: text)
    }

    private init(checked text: String) {
        self.text = text
    }

    public init?(pathSegment: String) {
        guard pathSegment.utf8.count == 43,
            pathSegment.utf8.allSatisfy({ byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            })
        else { return nil }
        self.init(checked: pathSegment)
    }

    public var pathSegment: String { text }

    /// SHA-256 of the token, in hex: what the database keeps and looks tokens up by. A fast hash
    /// is enough: the token has 256 random bits, so there is nothing to guess.
    public var digest: String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
