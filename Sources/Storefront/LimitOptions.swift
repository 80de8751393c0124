import Accounts
import ArgumentParser
import Foundation
import Orders
import Tessera

/// The storefront's rate limits, as `N/second|minute|hour|day`. Their counts are shared by every
/// instance on PostgreSQL, and kept in memory on SQLite.
struct LimitOptions: ParsableArguments {
    @Option(
        name: .customLong("registration-limit"),
        help: "Registrations per client address. [env: REGISTRATION_LIMIT] (default: 10/hour)")
    var registration: RateLimitRule?

    @Option(
        name: .customLong("password-reset-limit"),
        help: "Password reset links asked for per client address. [env: PASSWORD_RESET_LIMIT] (default: 10/hour)")
    var passwordReset: RateLimitRule?

    @Option(
        name: .customLong("checkout-limit"),
        help: "Orders placed per signed-in shopper. [env: CHECKOUT_LIMIT] (default: 30/minute)")
    var checkout: RateLimitRule?

    /// The registration, password reset and checkout rules; a value that is not `N/unit` stops the start.
    func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (registration: RateLimitRule, passwordReset: RateLimitRule, checkout: RateLimitRule) {
        let options = OptionEnvironment(environment)
        return (
            try rule(options, registration, "REGISTRATION_LIMIT", default: AccountsModule.defaultRegistrationLimit),
            try rule(options, passwordReset, "PASSWORD_RESET_LIMIT", default: AccountsModule.defaultPasswordResetLimit),
            try rule(options, checkout, "CHECKOUT_LIMIT", default: OrdersModule.defaultCheckoutLimit)
        )
    }

    private func rule(_ options: OptionEnvironment, _ flag: RateLimitRule?, _ name: String, default: RateLimitRule) throws -> RateLimitRule {
        do {
            return try options.value(flag, name, default: `default`) { RateLimitRule($0) }
        } catch {
            throw ValidationError("\(error) \(name) is a count from 1 to 1000000, a slash, and second, minute, hour or day, such as 10/hour.")
        }
    }
}
