import Foundation
import Tessera

/// Registration, sign-in, password changes and signed-in sessions. Refusals are thrown as
/// ``RegistrationError``, ``SignInError``, ``SignInThrottled`` and ``PasswordChangeError``,
/// which know their HTTP answer.
///
/// Passwords are hashed on ``hashing``, a small pool of its own, so that guessing cannot take
/// the threads that render pages; sign-in attempts pass ``throttle`` first, so guessing is slow.
public struct AccountsService: Sendable {
    let store: any AccountsStore
    let hasher: PasswordHasher
    let hashing: WorkerPool
    let throttle: SignInThrottle

    /// How long a signed-in session may last at most, however active: after this, sign in again.
    public static let sessionLifetime: Duration = .seconds(30 * 24 * 3600)

    /// - Parameters:
    ///   - hashing: where passwords are hashed; by default half the cores, 8 waiting at most.
    ///   - throttle: the sign-in attempt counts.
    public init(
        store: any AccountsStore,
        hasher: PasswordHasher = PasswordHasher(),
        hashing: WorkerPool = WorkerPool(name: "password-hashing", threads: max(1, HTTPServerConfiguration.processorCount / 2), queueLimit: 8),
        throttle: SignInThrottle = SignInThrottle()
    ) {
        self.store = store
        self.hasher = hasher
        self.hashing = hashing
        self.throttle = throttle
    }

    /// Creates an account; throws ``RegistrationError/emailTaken`` when the e-mail has one.
    public func register(name: String, email: String, password: String) async throws -> User {
        let hasher = self.hasher
        let hash = try await hash { try hasher.hash(password) }
        guard let user = try await store.insert(email: email, name: name, passwordHash: hash, isStaff: false) else { throw RegistrationError.emailTaken }
        return user
    }

    /// The user for these credentials; throws ``SignInError/wrongCredentials`` otherwise, after
    /// the same amount of work whether the e-mail exists or not, and ``SignInThrottled`` when
    /// this account or `address` has tried too often.
    public func authenticate(email: String, password: String, from address: IPAddress?) async throws -> User {
        let email = email.lowercased()
        try await throttle.admitOrPause(account: email, from: address)
        let user = try await store.user(email: email)
        let matches: Bool
        do {
            matches = try await verify(password, against: user?.passwordHash ?? AccountsSeed.users[0].passwordHash)  // same time either way
        } catch {
            throttle.withdraw(account: email, from: address)
            throw error
        }
        guard let user, matches else {
            throttle.failed(account: email, from: address)
            throw SignInError.wrongCredentials
        }
        throttle.succeeded(account: email, from: address)
        return user
    }

    /// Sets a new password once the current one is proven, and ends every session of the user:
    /// whoever had a copy of one is signed out. The caller starts a new session for itself.
    public func changePassword(userID: Int, current: String, new: String, from address: IPAddress?) async throws {
        guard let user = try await store.user(id: userID) else { throw SignInError.wrongCredentials }
        try await throttle.admitOrPause(account: user.email, from: address)
        let matches: Bool
        do {
            matches = try await verify(current, against: user.passwordHash)
        } catch {
            throttle.withdraw(account: user.email, from: address)
            throw error
        }
        guard matches else {
            throttle.failed(account: user.email, from: address)
            throw PasswordChangeError.wrongCurrentPassword
        }
        throttle.succeeded(account: user.email, from: address)
        let hasher = self.hasher
        let hash = try await hash { try hasher.hash(new) }
        try await store.updatePasswordHash(userID: userID, to: hash)
        try await store.endSessions(userID: userID)
    }

    public func user(id: Int) async throws -> User? {
        try await store.user(id: id)
    }

    // MARK: Signed-in sessions

    /// Records that session `sessionID` is now signed in as `userID`.
    public func startSession(_ sessionID: String, userID: Int) async throws {
        try await store.startSession(sessionID, userID: userID, forgettingSessionsStartedBefore: Date() - Self.sessionLifetime.timeInterval)
    }

    /// Whether `sessionID` is still signed in as `userID`: not signed out, not ended by a
    /// password change, and younger than ``sessionLifetime``.
    public func isSessionActive(_ sessionID: String, userID: Int) throws -> Bool {
        try store.isSessionActive(sessionID, userID: userID, startedAfter: Date() - Self.sessionLifetime.timeInterval)
    }

    /// Ends session `sessionID` on the server, so a copy of its cookie is worthless.
    public func endSession(_ sessionID: String) async throws {
        try await store.endSession(sessionID)
    }

    private func verify(_ password: String, against stored: String) async throws -> Bool {
        let hasher = self.hasher
        return try await hash { hasher.verify(password, against: stored) }
    }

    /// Runs `work` on the hashing pool. When the pool is full, the 503 is sent after the
    /// throttle's pause, like its 429s, so that clients retrying at once cannot make a flood of it.
    private func hash<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await hashing.run(work)
        } catch let refusal as WorkerPoolFull {
            try? await Task.sleep(for: throttle.policy.refusalPause)
            throw refusal
        }
    }
}

extension Duration {
    fileprivate var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
