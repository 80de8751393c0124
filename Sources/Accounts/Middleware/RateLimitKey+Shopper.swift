public import Tessera

extension RateLimitKey {
    /// The signed-in shopper, so that one account's limit follows it from address to address;
    /// anyone else by address.
    public static let shopper = RateLimitKey { context in
        context.shopper.map { "shopper:\($0.id)" } ?? RateLimitKey.clientAddress.subject(context)
    }
}
