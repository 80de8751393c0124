public import Foundation
public import Tessera

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
    /// The session ends this instance knows of, so that a signed-in request is checked in
    /// memory (kept current by ``followSessionEnds()``).
    let sessionEnds = SessionEndsReplica(lifetime: Self.sessionLifetime.timeInterval)

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
    public func register(name: String, email: String, password: String, within budget: DatabaseBudget) async throws -> User {
        let hash = try await passwordHash(for: password)
        guard let user = try await store.insert(email: email, name: name, passwordHash: hash, isStaff: false, within: budget) else {
            throw RegistrationError.emailTaken
        }
        return user
    }

    /// Gives the account `userID` the e-mail `email` (checked by the caller's form, as at
    /// registration) if it still has `old`, as staff do to mend an address mail could not reach;
    /// `false` when another account has `email` or the account's e-mail changed meanwhile.
    public func changeEmail(userID: Int, from old: String, to email: String, within budget: DatabaseBudget) async throws -> Bool {
        try await store.updateEmail(userID: userID, from: old, to: email.lowercased(), within: budget)
    }

    /// Whether an account other than `userID` has `email`.
    public func isTaken(_ email: String, byAnotherThan userID: Int, within budget: DatabaseBudget) async throws -> Bool {
        guard let owner = try await store.user(email: email.lowercased(), within: budget) else { return false }
        return owner.id != userID
    }

    /// The user for these credentials; throws ``SignInError/wrongCredentials`` otherwise, after
    /// the same amount of work whether the e-mail exists or not, and ``SignInThrottled`` when
    /// this account or `address` has tried too often.
    public func authenticate(email: String, password: String, from address: IPAddress?, within budget: DatabaseBudget) async throws -> User {
        let email = email.lowercased()
        try await throttle.admitOrPause(account: email, from: address, within: budget)
        let user = try await store.user(email: email, within: budget)
        let matches: Bool
        // Once admitted, the verdict stands whatever the counts' store says after it: one that
        // fails now (its database away) leaves at most this attempt counted as admitted.
        do {
            matches = try await verify(password, against: user?.passwordHash ?? hasher.placeholderHash)  // same time either way
        } catch {
            try? await throttle.withdraw(account: email, from: address, within: budget)
            throw error
        }
        guard let user, matches else {
            try? await throttle.failed(account: email, from: address, within: budget)
            throw SignInError.wrongCredentials
        }
        try? await throttle.succeeded(account: email, from: address, within: budget)
        return user
    }

    /// Sets a new password once the current one is proven, and ends every session of the user:
    /// whoever had a copy of one is signed out. The caller starts a new session for itself, as
    /// of the moment returned or later.
    public func changePassword(
        userID: Int, current: String, new: String, from address: IPAddress?, within budget: DatabaseBudget
    ) async throws -> Date {
        guard let user = try await store.user(id: userID, within: budget) else { throw SignInError.wrongCredentials }
        try await throttle.admitOrPause(account: user.email, from: address, within: budget)
        let matches: Bool
        do {
            matches = try await verify(current, against: user.passwordHash)
        } catch {
            try? await throttle.withdraw(account: user.email, from: address, within: budget)
            throw error
        }
        guard matches else {
            try? await throttle.failed(account: user.email, from: address, within: budget)
            throw PasswordChangeError.wrongCurrentPassword
        }
        try? await throttle.succeeded(account: user.email, from: address, within: budget)
        let hash = try await passwordHash(for: new)
        try await store.updatePasswordHash(userID: userID, to: hash, within: budget)
        let cutoff = Date()
        try await end(.everySession(userID: userID, signedInBefore: cutoff), within: budget)
        return cutoff
    }

    // MARK: Staff

    /// Every member of staff, by name, for the back office.
    public func staffMembers(within budget: DatabaseBudget) async throws -> [User] {
        try await store.staffMembers(within: budget)
    }

    /// Gives or takes staff rights, and ends every session of the account on every instance in
    /// the same transaction, as a password change does: a session's cookie says whether it is
    /// staff, so an old cookie must not outlive the rights it names. Given, they take effect at
    /// the next sign-in. `false`, with nothing changed or ended, when there is no such account or
    /// it is that already: a form sent twice at once, or a shopper's id, changes nothing.
    public func setStaff(userID: Int, to isStaff: Bool, within budget: DatabaseBudget) async throws -> Bool {
        let end = SessionEnd.everySession(userID: userID, signedInBefore: Date())
        guard try await store.updateStaff(userID: userID, isStaff: isStaff, recording: end, forgettingSignInsBefore: oldestLiveSignIn, within: budget)
        else {
            return false
        }
        sessionEnds.record(end)
        return true
    }

    /// The account that has `email`, for staff who name one; `nil` when none has.
    public func user(email: String, within budget: DatabaseBudget) async throws -> User? {
        try await store.user(email: email, within: budget)
    }

    /// The account, for pages that show more than the session carries; `nil` once it is gone.
    public func user(id: Int, within budget: DatabaseBudget) async throws -> User? {
        try await store.user(id: id, within: budget)
    }

    // MARK: Signed-in sessions

    /// What this instance knows of a signed-in session at once, without waiting: whether it is
    /// still active (not signed out, not ended by a password change, younger than
    /// ``sessionLifetime``), or ended, or `unknown` while the copy in memory may be missing an
    /// end: then ask ``isSessionActive(_:userID:signedInAt:)``.
    func standing(of sessionID: String, userID: Int, signedInAt: Date, now: Date = Date()) -> SessionEndsReplica.Standing {
        guard signedInAt > now - Self.sessionLifetime.timeInterval else { return .ended }
        return sessionEnds.standing(of: sessionID, userID: userID, signedInAt: signedInAt)
    }

    /// Whether a signed-in session is still active, asked of the store: what a request waits
    /// for while ``standing(of:userID:signedInAt:now:)`` cannot tell.
    func isSessionActive(_ sessionID: String, userID: Int, signedInAt: Date, now: Date = Date(), within budget: DatabaseBudget) async throws -> Bool {
        guard signedInAt > now - Self.sessionLifetime.timeInterval else { return false }
        return try await !store.hasEnded(sessionID, userID: userID, signedInAt: signedInAt, within: budget)
    }

    /// Ends session `sessionID`, signed in at `signedInAt`, on every instance, so a copy of its
    /// cookie is worthless.
    public func endSession(_ sessionID: String, signedInAt: Date, within budget: DatabaseBudget) async throws {
        try await end(.signedOut(sessionID: sessionID, signedInAt: signedInAt), within: budget)
    }

    private func end(_ end: SessionEnd, within budget: DatabaseBudget) async throws {
        try await store.record(end, forgettingSignInsBefore: oldestLiveSignIn, within: budget)
        sessionEnds.record(end)
    }

    /// The oldest sign-in a live session can have: ends of older ones are forgotten.
    private var oldestLiveSignIn: Date { Date() - Self.sessionLifetime.timeInterval }

    /// Notes an end that another store wrote in its own transaction (a password reset's) in
    /// this instance's copy, as ``end(_:)`` does for its own.
    func recorded(_ end: SessionEnd) {
        sessionEnds.record(end)
    }

    /// Keeps this instance's copy of the session ends current, until the task is cancelled:
    /// loads them whenever hearing of other instances' ends starts (again), and records each one
    /// heard. Run it beside the server (``SessionEndsFollower``); until it has loaded, signed-in
    /// requests ask the store.
    public func followSessionEnds() async {
        let store = self.store, replica = self.sessionEnds
        await store.followSessionEnds(
            started: {
                // Read after hearing started, so nothing ended since is missed; retried until it
                // succeeds, and until then requests ask the store.
                while !Task.isCancelled {
                    let oldest = Date() - Self.sessionLifetime.timeInterval
                    do {
                        replica.resume(with: try await store.sessionEnds(signedInSince: oldest, within: .outsideRequest))
                        return
                    } catch {
                        try? await Task.sleep(for: .seconds(1))
                    }
                }
            },
            received: { replica.record($0) },
            interrupted: { replica.interrupt() }
        )
    }

    /// The hash to store for a new password, made on the hashing pool.
    func passwordHash(for password: String) async throws -> String {
        let hasher = self.hasher
        return try await hash { try hasher.hash(password) }
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
