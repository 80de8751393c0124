import Accounts
import ArgumentParser
import Foundation
import Tessera

/// How many PBKDF2 rounds the storefront's password hashes take: new accounts, changed passwords
/// and the demo accounts a new database gets. Test suites lower it, as Rails and Phoenix apps
/// lower their hash cost in tests, so that a sign-in on a busy machine is not a test of patience.
struct PasswordOptions: ParsableArguments {
    @Option(
        name: .customLong("password-hash-rounds"),
        help:
            "PBKDF2 rounds for new password hashes, from 1000 to 10000000; below 600000 for tests only. [env: PASSWORD_HASH_ROUNDS] (default: 600000)"
    )
    var rounds: Int?

    /// OWASP's 2023 figure for PBKDF2-HMAC-SHA256, and the default.
    static let recommendedRounds = 600_000

    /// The hasher these options ask for; a count outside 1,000–10,000,000 stops the start.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PasswordHasher {
        let rounds = try OptionEnvironment(environment).value(rounds, "PASSWORD_HASH_ROUNDS", default: Self.recommendedRounds) { Int($0) }
        guard (1_000...10_000_000).contains(rounds) else {
            throw ValidationError("PASSWORD_HASH_ROUNDS=\(rounds) must be from 1000 to 10000000.")
        }
        return PasswordHasher(rounds: rounds)
    }
}
