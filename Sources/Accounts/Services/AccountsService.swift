import Tessera

/// Registration and sign-in rules. Refusals are thrown as ``RegistrationError`` and
/// ``SignInError``, which know their HTTP answer.
public struct AccountsService: Sendable {
    let store: any AccountsStore
    let hasher: PasswordHasher

    public init(store: any AccountsStore, hasher: PasswordHasher = PasswordHasher()) {
        self.store = store
        self.hasher = hasher
    }

    /// Creates an account; throws ``RegistrationError/emailTaken`` when the e-mail has one.
    public func register(name: String, email: String, password: String) async throws -> User {
        let hash = try hasher.hash(password)
        guard let user = try await store.insert(email: email, name: name, passwordHash: hash) else { throw RegistrationError.emailTaken }
        return user
    }

    /// The user for these credentials; throws ``SignInError/wrongCredentials`` otherwise, after
    /// the same amount of work whether the e-mail exists or not.
    public func authenticate(email: String, password: String) async throws -> User {
        guard let user = try await store.user(email: email.lowercased()) else {
            _ = hasher.verify(password, against: AccountsSeed.users[0].passwordHash)  // same time either way
            throw SignInError.wrongCredentials
        }
        guard hasher.verify(password, against: user.passwordHash) else { throw SignInError.wrongCredentials }
        return user
    }

    public func user(id: Int) async throws -> User? {
        try await store.user(id: id)
    }
}
