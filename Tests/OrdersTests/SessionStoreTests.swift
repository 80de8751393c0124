@testable import Accounts
import Foundation
import PostgresNIO
import PostgresTestSupport
@testable import Storefront
import TesseraPostgres
import Testing

/// Signed-in sessions kept by the accounts store, seen from two server instances on one
/// database: ending a session through one ends it on the other at once, on both databases.
@Suite struct SessionStoreTests {
    @Test(arguments: StoreKind.allCases)
    func theDemoStaffAccountComesOnlyWithANewDatabase(_ kind: StoreKind) async throws {
        let fresh = try await ShopDatabase.make(kind)
        let running = try await ShopDatabase.make(kind)
        do {
            try await AccountsSeed.seedIfEmpty(fresh.services.accounts.store)
            #expect(try await fresh.services.accounts.store.user(email: AccountsSeed.staffEmail)?.isStaff == true)
            #expect(try await fresh.services.accounts.store.user(email: "ada@example.com")?.isStaff == false)

            // A shop that already runs (Ada is there): its next start adds no published staff password.
            let ada = AccountsSeed.users[0]
            _ = try await running.services.accounts.store.insert(email: ada.email, name: ada.name, passwordHash: ada.passwordHash, isStaff: false)
            try await AccountsSeed.seedIfEmpty(running.services.accounts.store)
            #expect(try await running.services.accounts.store.user(email: AccountsSeed.staffEmail) == nil)
            #expect(try await running.services.accounts.store.user(email: "grace@example.com") != nil, "the demo shoppers, as before")
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
        do {
            let here = database.services.accounts, there = other.services.accounts
            try await AccountsSeed.seedIfEmpty(here.store)
            let user = try #require(try await here.store.user(email: AccountsSeed.users[0].email))

            try await here.startSession("first", userID: user.id)
            try await here.startSession("second", userID: user.id)
            #expect(try there.isSessionActive("first", userID: user.id), "a sign-in through one instance counts on the other")
            #expect(try !there.isSessionActive("first", userID: user.id + 1), "only for its own user")
            #expect(try !there.isSessionActive("never", userID: user.id))

            try await there.endSession("first")
            #expect(try !here.isSessionActive("first", userID: user.id), "signed out through the other instance")
            #expect(try here.isSessionActive("second", userID: user.id), "the user's other session goes on")

            // A password change ends every session of the user, wherever it started.
            try await here.store.endSessions(userID: user.id)
            #expect(try !there.isSessionActive("second", userID: user.id))
        } catch {
            await other.close()
            await database.remove()
            throw error
        }
        await other.close()
        await database.remove()
    }
}
