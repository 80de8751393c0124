import Foundation
import PostgresTestSupport
import Synchronization
import Tessera
import TesseraMail
import TesseraViews
import Testing

@testable import Accounts
@testable import Storefront

/// Password resets on both databases, through the composition root's wiring: the link's mail
/// and its reset are kept together, a link works once and for an hour, and using it ends every
/// session of the account.
@Suite struct PasswordResetStoreTests {
    static let site = SiteURL("https://shop.example.com")!

    /// The mail the outbox holds next, and the token of its link.
    static func nextLink(in shop: ShopDatabase) async throws -> (mail: ClaimedMail, token: PasswordResetToken)? {
        guard let claimed = try await shop.services.mailOutbox.claim(lease: .seconds(60)) else { return nil }
        let text = claimed.mail.data.replacingOccurrences(of: "=\r\n", with: "")
        let segment = text.components(separatedBy: "https://shop.example.com/password/reset/").dropFirst().first?.prefix(43) ?? ""
        let token = try #require(PasswordResetToken(pathSegment: String(segment)))
        return (claimed, token)
    }

    static func with(_ kind: StoreKind, _ body: (ShopDatabase, User) async throws -> Void) async throws {
        let shop = try await ShopDatabase.make(kind)
        do {
            let user = try await shop.services.accounts.register(
                name: "Ada", email: "ada@example.org", password: "analytical-engine", within: .outsideRequest)
            try await body(shop, user)
        } catch {
            await shop.remove()
            throw error
        }
        await shop.remove()
    }

    @Test(arguments: StoreKind.allCases)
    func aLinkIsMailedOnlyToAnAccountsAddress(_ kind: StoreKind) async throws {
        try await Self.with(kind) { shop, user in
            let resets = shop.services.passwordResets
            #expect(try await resets.mailLink(to: "nobody@example.org", site: Self.site, language: .english, within: .outsideRequest) == false)
            #expect(try await shop.services.mailOutbox.claim(lease: .seconds(60)) == nil, "no mail for an address without an account")
            #expect(try await resets.mailLink(to: "ADA@example.org", site: Self.site, language: .english, within: .outsideRequest))
            let (claimed, token) = try #require(try await Self.nextLink(in: shop))
            #expect(claimed.mail.recipients == ["ada@example.org"])
            #expect(claimed.mail.messageID.hasPrefix("password-reset."))
            #expect(!claimed.mail.data.contains(token.digest), "the mail has the token, the database its digest")
            #expect(try await resets.account(resetBy: token, within: .outsideRequest) == user.id)
            // Once on its way, the outbox keeps no copy of the link.
            #expect(try shop.outboxData(of: claimed.mail.messageID)?.replacingOccurrences(of: "=\r\n", with: "").contains(token.text) == true)
            try await shop.services.mailOutbox.delivered(claimed)
            #expect(try shop.outboxData(of: claimed.mail.messageID) == "")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aLinkWorksOnceEndsEverySessionAndKillsTheOthers(_ kind: StoreKind) async throws {
        try await Self.with(kind) { shop, user in
            // Two links, asked for two minutes apart.
            let later = Mutex<TimeInterval>(-120)
            let resets = shop.passwordResets { Date() + later.withLock { $0 } }, accounts = shop.services.accounts
            try await resets.mailLink(to: user.email, site: Self.site, language: .english, within: .outsideRequest)
            later.withLock { $0 = 0 }
            try await resets.mailLink(to: user.email, site: Self.site, language: .english, within: .outsideRequest)
            let first = try #require(try await Self.nextLink(in: shop)).token
            let second = try #require(try await Self.nextLink(in: shop)).token
            #expect(first != second)
            let signedInAt = Date() - 60
            #expect(try await accounts.isSessionActive("phone", userID: user.id, signedInAt: signedInAt, within: .outsideRequest))

            #expect(try await resets.reset(second, to: "difference-engine", within: .outsideRequest).user?.id == user.id)
            #expect(
                try await !accounts.isSessionActive("phone", userID: user.id, signedInAt: signedInAt, within: .outsideRequest),
                "recorded in the database")
            #expect(accounts.standing(of: "phone", userID: user.id, signedInAt: signedInAt) == .ended, "and in this instance's copy")
            #expect(
                try await accounts.authenticate(email: user.email, password: "difference-engine", from: nil, within: .outsideRequest).id == user.id)
            await #expect(throws: SignInError.wrongCredentials) {
                try await accounts.authenticate(email: user.email, password: "analytical-engine", from: nil, within: .outsideRequest)
            }
            #expect(
                try await resets.reset(second, to: "third-password", within: .outsideRequest) == .usedJustNow,
                "a link works once; sent again, it says so")
            #expect(try await resets.reset(first, to: "third-password", within: .outsideRequest) == .dead, "an older link dies with the reset")
            #expect(try await resets.account(resetBy: first, within: .outsideRequest) == nil)
            #expect(
                try await accounts.authenticate(email: user.email, password: "difference-engine", from: nil, within: .outsideRequest).id == user.id)
        }
    }

    /// A new password, or a new address (staff mending it), ends the links mailed before.
    @Test(arguments: StoreKind.allCases)
    func aPasswordChangeOrANewAddressEndsTheLinks(_ kind: StoreKind) async throws {
        try await Self.with(kind) { shop, user in
            let resets = shop.services.passwordResets, accounts = shop.services.accounts
            try await resets.mailLink(to: user.email, site: Self.site, language: .english, within: .outsideRequest)
            let beforeChange = try #require(try await Self.nextLink(in: shop)).token
            _ = try await accounts.changePassword(
                userID: user.id, current: "analytical-engine", new: "second-password", from: nil, within: .outsideRequest)
            #expect(try await resets.account(resetBy: beforeChange, within: .outsideRequest) == nil)
            try await resets.mailLink(to: user.email, site: Self.site, language: .english, within: .outsideRequest)
            let beforeMove = try #require(try await Self.nextLink(in: shop)).token
            #expect(try await accounts.changeEmail(userID: user.id, from: user.email, to: "ada@new.example", within: .outsideRequest))
            #expect(try await resets.account(resetBy: beforeMove, within: .outsideRequest) == nil)
            #expect(try await resets.reset(beforeMove, to: "mallory-password", within: .outsideRequest) == .dead)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func ofTwoUsesAtOnceOneWins(_ kind: StoreKind) async throws {
        try await Self.with(kind) { shop, user in
            let resets = shop.services.passwordResets
            try await resets.mailLink(to: user.email, site: Self.site, language: .english, within: .outsideRequest)
            let token = try #require(try await Self.nextLink(in: shop)).token
            let passwords = (0..<6).map { "password-number-\($0)" }
            let winners = try await withThrowingTaskGroup(of: String?.self) { group in
                for password in passwords {
                    group.addTask { try await resets.reset(token, to: password, within: .outsideRequest).user == nil ? nil : password }
                }
                return try await group.reduce(into: [String]()) { if let won = $1 { $0.append(won) } }
            }
            #expect(winners.count == 1)
            let winner = try #require(winners.first)
            #expect(
                try await shop.services.accounts.authenticate(email: user.email, password: winner, from: nil, within: .outsideRequest).id == user.id)
        }
    }

    /// A double click, or a retried request, mails one link; asking again later mails another.
    @Test(arguments: StoreKind.allCases)
    func askingTwiceAtOnceMailsOneLink(_ kind: StoreKind) async throws {
        try await Self.with(kind) { shop, user in
            let later = Mutex<TimeInterval>(0)
            let resets = shop.passwordResets { Date() + later.withLock { $0 } }
            let mailed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await resets.mailLink(to: user.email, site: Self.site, language: .english, within: .outsideRequest) }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(mailed == 1)
            #expect(try await Self.nextLink(in: shop) != nil)
            #expect(try await shop.services.mailOutbox.claim(lease: .seconds(60)) == nil, "one mail for four requests")
            later.withLock { $0 = PasswordResetService.repeatWindow.timeInterval + 1 }
            #expect(
                try await resets.mailLink(to: user.email, site: Self.site, language: .english, within: .outsideRequest),
                "asked again later: another link")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aLinkExpiresAfterAnHour(_ kind: StoreKind) async throws {
        try await Self.with(kind) { shop, user in
            let later = Mutex<TimeInterval>(0)
            let resets = shop.passwordResets { Date() + later.withLock { $0 } }
            try await resets.mailLink(to: user.email, site: Self.site, language: .english, within: .outsideRequest)
            let token = try #require(try await Self.nextLink(in: shop)).token
            later.withLock { $0 = 3590 }
            #expect(try await resets.account(resetBy: token, within: .outsideRequest) == user.id, "still usable just before the hour")
            later.withLock { $0 = 3610 }
            #expect(try await resets.account(resetBy: token, within: .outsideRequest) == nil)
            #expect(try await resets.reset(token, to: "too-late-password", within: .outsideRequest) == .dead)
            await #expect(throws: SignInError.wrongCredentials) {
                try await shop.services.accounts.authenticate(email: user.email, password: "too-late-password", from: nil, within: .outsideRequest)
            }
        }
    }

    @Test func theMailIsInTheLanguageItWasAskedIn() async throws {
        try await Self.with(.sqlite) { shop, user in
            try await shop.services.passwordResets.mailLink(
                to: user.email, site: Self.site, language: Language("de", currencies: ["EUR"]), within: .outsideRequest)
            let mail = try #require(try await Self.nextLink(in: shop)).mail.mail.data
            #expect(mail.contains("Content-Language: de"))
            #expect(mail.contains("Hallo Ada,"))
            #expect(mail.contains("<html lang=3D\"de\">"))
        }
    }
}

extension PasswordResetService.Outcome {
    /// The account whose password was set, if it was.
    var user: User? {
        if case .reset(let user) = self { user } else { nil }
    }
}
