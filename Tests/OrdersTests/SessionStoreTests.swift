import Foundation
import PostgresTestSupport
import Tessera
import TesseraPostgres
import Testing

@testable import Accounts
@testable import Storefront

/// Signed-in sessions kept by the accounts store, seen from two server instances on one
/// database: ending a session through one ends it on the other at once, on both databases.
@Suite struct SessionStoreTests {
    @Test(arguments: StoreKind.allCases)
    func theDemoStaffAccountComesOnlyWithANewDatabase(_ kind: StoreKind) async throws {
        let fresh = try await ShopDatabase.make(kind)
        let running = try await ShopDatabase.make(kind)
        do {
            try await AccountsSeed.seedIfEmpty(fresh.services.accounts.store, hasher: .forTests)
            #expect(try await fresh.services.accounts.store.user(email: AccountsSeed.staffEmail, within: .outsideRequest)?.isStaff == true)
            #expect(try await fresh.services.accounts.store.user(email: "ada@example.com", within: .outsideRequest)?.isStaff == false)

            // A shop that already runs (Ada is there): its next start adds no published staff password.
            let ada = AccountsSeed.users[0]
            _ = try await running.services.accounts.store.insert(
                email: ada.email, name: ada.name, passwordHash: try PasswordHasher.forTests.hash(ada.password), isStaff: false,
                within: .outsideRequest)
            try await AccountsSeed.seedIfEmpty(running.services.accounts.store, hasher: .forTests)
            #expect(try await running.services.accounts.store.user(email: AccountsSeed.staffEmail, within: .outsideRequest) == nil)
            #expect(
                try await running.services.accounts.store.user(email: "grace@example.com", within: .outsideRequest) != nil,
                "the demo shoppers, as before")
        } catch {
            await fresh.remove()
            await running.remove()
            throw error
        }
        await fresh.remove()
        await running.remove()
    }

    @Test(arguments: StoreKind.allCases)
    func aSessionEndedThroughOneInstanceIsEndedOnAll(_ kind: StoreKind) async throws {
        let database = try await ShopDatabase.make(kind)
        let other = try database.anotherInstance()
        let following = Task { await other.services.accounts.followSessionEnds() }
        do {
            let here = database.services.accounts, there = other.services.accounts
            try await AccountsSeed.seedIfEmpty(here.store, hasher: .forTests)
            let user = try #require(try await here.store.user(email: AccountsSeed.users[0].email, within: .outsideRequest))
            let signedIn = Date() - 60
            try await waitUntil("the other instance follows the session ends") { there.sessionEnds.isCurrent }
            #expect(there.standing(of: "first", userID: user.id, signedInAt: signedIn) == .active, "a signed cookie is all a sign-in needs")
            #expect(there.standing(of: "first", userID: user.id, signedInAt: Date() - 31 * 24 * 3600) == .ended, "older than a session's lifetime")
            #expect(here.standing(of: "first", userID: user.id, signedInAt: signedIn) == .unknown, "an instance that does not follow asks the store")
            #expect(try await here.isSessionActive("first", userID: user.id, signedInAt: signedIn, within: .outsideRequest))

            try await here.endSession("first", signedInAt: signedIn, within: .outsideRequest)
            #expect(try await !here.isSessionActive("first", userID: user.id, signedInAt: signedIn, within: .outsideRequest), "recorded in the store")
            #expect(here.standing(of: "first", userID: user.id, signedInAt: signedIn) == .ended, "and in the memory of the instance that ended it")
            if kind == .postgres {
                try await waitUntil("the other instance hears of it") { there.standing(of: "first", userID: user.id, signedInAt: signedIn) == .ended }
            }
            #expect(there.standing(of: "second", userID: user.id, signedInAt: signedIn) == .active, "the user's other session goes on")

            // A password change ends every session of the user signed in before it, wherever.
            let cutoff = try await here.changePasswordForTest(userID: user.id)
            #expect(try await !here.isSessionActive("second", userID: user.id, signedInAt: signedIn, within: .outsideRequest))
            if kind == .postgres {
                try await waitUntil("the other instance hears of the password change") {
                    there.standing(of: "second", userID: user.id, signedInAt: signedIn) == .ended
                }
            }
            #expect(there.standing(of: "third", userID: user.id, signedInAt: cutoff + 0.001) == .active, "a sign-in after the change goes on")
            #expect(there.standing(of: "third", userID: user.id + 1, signedInAt: signedIn) == .active, "another user's sessions go on")
        } catch {
            following.cancel()
            await other.close()
            await database.remove()
            throw error
        }
        following.cancel()
        await other.close()
        await database.remove()
    }

    /// Everything the store has is loaded again when following starts: an end recorded while
    /// an instance did not hear (its listener cut off) counts once it follows again.
    @Test(arguments: StoreKind.allCases)
    func endsMissedWhileNotFollowingCountOnceFollowingAgain(_ kind: StoreKind) async throws {
        let database = try await ShopDatabase.make(kind)
        let other = try database.anotherInstance()
        do {
            let here = database.services.accounts, there = other.services.accounts
            try await AccountsSeed.seedIfEmpty(here.store, hasher: .forTests)
            let user = try #require(try await here.store.user(email: AccountsSeed.users[0].email, within: .outsideRequest))
            let signedIn = Date() - 60
            try await here.endSession("missed", signedInAt: signedIn, within: .outsideRequest)
            #expect(there.standing(of: "missed", userID: user.id, signedInAt: signedIn) == .unknown)
            let following = Task { await there.followSessionEnds() }
            try await waitUntil("the other instance follows") { there.sessionEnds.isCurrent }
            following.cancel()
            #expect(there.standing(of: "missed", userID: user.id, signedInAt: signedIn) == .ended, "loaded as following started")
        } catch {
            await other.close()
            await database.remove()
            throw error
        }
        await other.close()
        await database.remove()
    }

    private func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting until \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

extension AccountsService {
    /// Ends every session of `userID` as a password change does, without hashing one.
    func changePasswordForTest(userID: Int) async throws -> Date {
        let cutoff = Date()
        try await store.record(
            .everySession(userID: userID, signedInBefore: cutoff), forgettingSignInsBefore: cutoff - 30 * 24 * 3600, within: .outsideRequest)
        sessionEnds.record(.everySession(userID: userID, signedInBefore: cutoff))
        return cutoff
    }
}
