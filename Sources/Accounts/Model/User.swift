/// A shopper's account. The password is only ever stored as a ``PasswordHasher`` hash.
public struct User: Sendable, Equatable, Codable {
    public var id: Int
    public var email: String
    public var name: String
    public var passwordHash: String
    /// Staff may use the back office; shoppers may not.
    public var isStaff: Bool

    public init(id: Int, email: String, name: String, passwordHash: String, isStaff: Bool = false) {
        self.id = id
        self.email = email
        self.name = name
        self.passwordHash = passwordHash
        self.isStaff = isStaff
    }
}
