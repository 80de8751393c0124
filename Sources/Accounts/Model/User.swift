/// A shopper's account. The password is only ever stored as a ``PasswordHasher`` hash.
public struct User: Sendable, Equatable, Codable {
    /// The account's number; sessions, orders and carts refer to it, never to the e-mail.
    public var id: Int
    /// The address the shopper signs in with: one account per address.
    public var email: String
    /// The name shown in the layout and on orders.
    public var name: String
    /// `pbkdf2-sha256$ROUNDS$SALT$HASH`: never the password, and verifiable after the rounds change.
    public var passwordHash: String
    /// Staff may use the back office; shoppers may not.
    public var isStaff: Bool

    /// An account as a store reads it, or as seeds and tests make one.
    public init(id: Int, email: String, name: String, passwordHash: String, isStaff: Bool = false) {
        self.id = id
        self.email = email
        self.name = name
        self.passwordHash = passwordHash
        self.isStaff = isStaff
    }
}
