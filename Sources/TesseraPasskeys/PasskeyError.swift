public import HTTPTypes
public import Tessera
public import TesseraViews

/// Why a passkey registration or sign-in was refused: a 422 page that says what to do, while the
/// case says what was wrong, for the log. Nothing is stored or signed in when one is thrown.
public enum PasskeyError: LocalizedResponseError, Equatable, CustomStringConvertible {
    /// Bytes that are not what WebAuthn says (CBOR, authenticator data, client data, base64url).
    case malformed(String)
    /// A key of another kind than ES256 on P-256.
    case unsupportedKey(String)
    /// The challenge is unknown, was used already, expired, or belongs to another session.
    case challengeNotIssued
    /// The client data names another page than this site, or another ceremony.
    case wrongOrigin(String)
    case wrongType(String)
    /// The authenticator signed for another relying party ID.
    case wrongRelyingParty
    /// The user was not present (no touch, no gesture).
    case userNotPresent
    /// The authenticator did not verify the user (no PIN, no biometric), which the site requires.
    case userNotVerified
    /// The signature does not verify with the credential's key.
    case badSignature
    /// The counter did not go up: a copy of the authenticator may exist.
    case counterWentBack(stored: UInt32, received: UInt32)
    /// No account has this credential.
    case unknownCredential
    /// The credential is registered already.
    case alreadyRegistered

    public var status: HTTPResponse.Status { .unprocessableContent }

    /// What the shopper is told, in `language`: what to do next, never which check failed.
    public func publicMessage(in language: Language) -> String {
        let message =
            switch self {
            case .challengeNotIssued: Messages.passkeyExpired
            case .unknownCredential: Messages.passkeyUnknown
            case .alreadyRegistered: Messages.passkeyRegistered
            case .userNotVerified: Messages.passkeyNotVerified
            default: Messages.passkeyFailed
            }
        return message.string(in: language)
    }

    public var description: String {
        switch self {
        case .malformed(let what): "malformed: \(what)"
        case .unsupportedKey(let what): "unsupported key: \(what)"
        case .challengeNotIssued: "the challenge was not issued to this session, or was used already"
        case .wrongOrigin(let origin): "the client data's origin \(origin) is not this site's"
        case .wrongType(let type): "the client data's type is \(type)"
        case .wrongRelyingParty: "the authenticator signed for another relying party ID"
        case .userNotPresent: "the user-present flag is not set"
        case .userNotVerified: "the user-verified flag is not set"
        case .badSignature: "the signature does not verify"
        case .counterWentBack(let stored, let received): "the signature counter went from \(stored) to \(received)"
        case .unknownCredential: "no account has this credential"
        case .alreadyRegistered: "the credential is registered already"
        }
    }
}
