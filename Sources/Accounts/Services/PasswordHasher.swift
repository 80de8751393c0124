import _CryptoExtras
import Crypto
import Foundation

/// Password hashing with PBKDF2-HMAC-SHA256, 600,000 rounds (OWASP's 2023 figure), a random
/// 128-bit salt, stored as `pbkdf2-sha256$ROUNDS$SALT$HASH` so the cost can rise later and old
/// hashes still verify.
public struct PasswordHasher: Sendable {
    public var rounds: Int

    public init(rounds: Int = 600_000) {
        self.rounds = rounds
    }

    public func hash(_ password: String) throws -> String {
        let salt = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
        let key = try derive(password, salt: salt, rounds: rounds)
        return "pbkdf2-sha256$\(rounds)$\(Self.base64URL(salt))$\(Self.base64URL(key))"
    }

    /// Whether `password` matches `stored`, compared in constant time. A malformed hash never matches.
    public func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$")
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]), rounds >= 1, rounds <= 10_000_000,
              let salt = Self.data(base64URL: parts[2]), let expected = Self.data(base64URL: parts[3]),
              let actual = try? derive(password, salt: salt, rounds: rounds)
        else { return false }
        guard actual.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(actual, expected) { difference |= a ^ b }
        return difference == 0
    }

    private func derive(_ password: String, salt: Data, rounds: Int) throws -> Data {
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: Data(password.utf8), salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: rounds)
        return key.withUnsafeBytes { Data($0) }
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func data(base64URL text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
