/// A shopper's account. The password is only ever stored as a ``PasswordHasher`` hash.
public struct User: Sendable, Equatable, Codable {
    public var id: Int
    public var email: String
    public var name: String
    public var passwordHash: String

    public init(id: Int, email: String, name: String, passwordHash: String) {
        self.id = id
        self.email = email
        self.name = name
        self.passwordHash = passwordHash
    }
}
