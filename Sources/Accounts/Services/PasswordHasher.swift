import Crypto
import Foundation
import Tessera
import _CryptoExtras

/// Password hashing with PBKDF2-HMAC-SHA256, 600,000 rounds (OWASP's 2023 figure), a random
/// 128-bit salt, stored as `pbkdf2-sha256$ROUNDS$SALT$HASH` so the cost can rise later and old
/// hashes still verify.
public struct PasswordHasher: Sendable {
    /// PBKDF2 iterations for new hashes; verifying reads each hash's own count, so raising it breaks no password.
    public var rounds: Int

    /// A hasher; tests pass few rounds, so that they do not spend seconds hashing.
    public init(rounds: Int = 600_000) {
        self.rounds = rounds
    }

    /// A new hash with a fresh salt: two accounts with one password never share a hash.
    public func hash(_ password: String) throws -> String {
        let salt = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
        let key = try derive(password, salt: salt, rounds: rounds)
        return "pbkdf2-sha256$\(rounds)$\(Base64URL.encode(salt))$\(Base64URL.encode(key))"
    }

    /// A hash no password matches, at this hasher's rounds: verifying an unknown account's
    /// attempt against it costs what verifying a real one does, so timing tells no account apart.
    public var placeholderHash: String {
        "pbkdf2-sha256$\(rounds)$\(Base64URL.encode([UInt8](repeating: 0, count: 16)))$\(Base64URL.encode([UInt8](repeating: 0, count: 32)))"
    }

    /// Whether `password` matches `stored`, compared in constant time. A malformed hash never matches.
    public func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$")
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]), rounds >= 1, rounds <= 10_000_000,
            let salt = Base64URL.decode(parts[2]).map({ Data($0) }), let expected = Base64URL.decode(parts[3]),
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
}
