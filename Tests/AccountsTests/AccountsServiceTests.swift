import Accounts
import Foundation
import GRDB
import Tessera
import Testing

/// Registration and sign-in rules on a real SQLite database.
@Suite struct AccountsServiceTests {
    /// A fast hasher: the rules are what is tested here, not PBKDF2's cost.
    static let hasher = PasswordHasher(rounds: 1_000)

    static func service() throws -> (AccountsService, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-accounts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try DatabasePool(path: folder.appendingPathComponent("accounts.sqlite").path)
        var migrator = DatabaseMigrator()
        SQLiteAccountsStore.registerMigrations(in: &migrator)
        try migrator.migrate(database)
        return (AccountsService(store: SQLiteAccountsStore(database: database), hasher: hasher), folder)
    }

    @Test func registeringThenSigningIn() async throws {
        let (accounts, folder) = try Self.service()
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = try await accounts.register(name: "Ada", email: "ada@example.org", password: "analytical-engine", within: .outsideRequest)
        #expect(user.passwordHash.hasPrefix("pbkdf2-sha256$1000$"), "only a hash is stored")
        #expect(!user.passwordHash.contains("analytical-engine"))
        #expect(
            try await accounts.authenticate(email: "ADA@example.org", password: "analytical-engine", from: nil, within: .outsideRequest) == user,
            "e-mails match case-insensitively")
        #expect(try await accounts.user(id: user.id, within: .outsideRequest) == user)
    }

    @Test func aTakenEmailIsRefusedAndKeepsTheFirstAccount() async throws {
        let (accounts, folder) = try Self.service()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await accounts.register(name: "Ada", email: "ada@example.org", password: "first-password", within: .outsideRequest)
        await #expect(throws: RegistrationError.emailTaken) {
            try await accounts.register(name: "Mallory", email: "ada@example.org", password: "second-password", within: .outsideRequest)
        }
        #expect(RegistrationError.emailTaken.status == .unprocessableContent)
        #expect(try await accounts.authenticate(email: "ada@example.org", password: "first-password", from: nil, within: .outsideRequest) == first)
    }

    @Test func wrongCredentialsAreOneRefusalWhicheverPartIsWrong() async throws {
        let (accounts, folder) = try Self.service()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await accounts.register(name: "Ada", email: "ada@example.org", password: "right-password", within: .outsideRequest)
        await #expect(throws: SignInError.wrongCredentials) {
            try await accounts.authenticate(email: "ada@example.org", password: "wrong-password", from: nil, within: .outsideRequest)
        }
        await #expect(throws: SignInError.wrongCredentials) {
            try await accounts.authenticate(email: "nobody@example.org", password: "right-password", from: nil, within: .outsideRequest)
        }
        await #expect(throws: SignInError.wrongCredentials) {
            try await accounts.authenticate(email: "ada@example.org", password: "", from: nil, within: .outsideRequest)
        }
    }

    @Test func theHasherVerifiesOnlyItsOwnWellFormedHashes() throws {
        let hash = try Self.hasher.hash("secret")
        #expect(Self.hasher.verify("secret", against: hash))
        #expect(!Self.hasher.verify("Secret", against: hash))
        #expect(try Self.hasher.hash("secret") != hash, "a new salt each time")
        for malformed in ["", "plain", "pbkdf2-sha256$0$abc$def", "pbkdf2-sha256$99999999$abc$def", "md5$1$a$b", hash + "$extra"] {
            #expect(!Self.hasher.verify("secret", against: malformed), "\(malformed)")
        }
        // A placeholder hash (an unknown account's stand-in) has the hasher's rounds, and nothing matches it.
        #expect(Self.hasher.placeholderHash.hasPrefix("pbkdf2-sha256$1000$"))
        for guess in ["", "secret", "ada-lovelace-1815"] { #expect(!Self.hasher.verify(guess, against: Self.hasher.placeholderHash)) }
    }
}
