import Tessera

/// Registration and sign-in rules, and who is signed in.
public struct AccountsService: Sendable {
    let store: any AccountsStore
    let hasher: PasswordHasher

    public init(store: any AccountsStore, hasher: PasswordHasher = PasswordHasher()) {
        self.store = store
        self.hasher = hasher
    }

    public enum RegistrationError: Error, Equatable {
        case emailTaken
    }

    public func register(name: String, email: String, password: String) async throws -> Result<User, RegistrationError> {
        let hash = try hasher.hash(password)
        guard let user = try await store.insert(email: email, name: name, passwordHash: hash) else { return .failure(.emailTaken) }
        return .success(user)
    }

    /// The user for these credentials, or `nil`; which of the two was wrong is not said.
    public func authenticate(email: String, password: String) async throws -> User? {
        guard let user = try await store.user(email: email.lowercased()) else {
            _ = hasher.verify(password, against: AccountsSeed.users[0].passwordHash)  // same time either way
            return nil
        }
        return hasher.verify(password, against: user.passwordHash) ? user : nil
    }

    /// The signed-in user of this request, if any.
    public func currentUser(in context: RequestContext) async throws -> User? {
        guard let id = SignedIn.userID(in: context) else { return nil }
        return try await store.user(id: id)
    }
}

/// The session entry that says who is signed in. Other modules (Orders) read it from here.
public enum SignedIn {
    static let key = "userID"

    public static func userID(in context: RequestContext) -> Int? {
        context.session[key].flatMap(Int.init)
    }

    /// The signed-in user's name, for the navigation bar.
    public static func userName(in context: RequestContext) -> String? {
        userID(in: context) == nil ? nil : context.session["userName"]
    }

    /// Signs `user` in: a new session id first, so an id planted before sign-in is worthless.
    static func signIn(_ user: User, in context: RequestContext) {
        context.session.rotate()
        context.session[key] = String(user.id)
        context.session["userName"] = user.name
    }

    static func signOut(in context: RequestContext) {
        context.session.clear()
    }
}
