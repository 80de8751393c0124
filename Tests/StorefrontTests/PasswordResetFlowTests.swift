import Foundation
import PostgresTestSupport
import TesseraPostgres
import TesseraTesting
import Testing

/// Password resets on a real storefront, over HTTP, with the mail read from `DATA_DIR/mail` as
/// the outbox's worker writes it: on SQLite, and on PostgreSQL in the throwaway cluster.
@Suite(.serialized) struct PasswordResetFlowTests {
    /// Runs `body` on a storefront on `database`, with `environment` added.
    func run(on database: StoreKind, _ environment: [String: String] = [:], _ body: (TestStorefront) async throws -> Void) async throws {
        switch database {
        case .sqlite:
            try await TestStorefront.run(environment: environment, body)
        case .postgres:
            let url = try await PostgresTestCluster.newDatabase()
            let settings = ["DATABASE_URL": try PostgresTestCluster.databaseURL(url.database), "SESSION_SECRET": String(repeating: "r", count: 40)]
            do {
                try await TestStorefront.run(environment: settings.merging(environment) { $1 }, startup: .seconds(60), body)
            } catch {
                await PostgresTestCluster.drop(url)
                throw error
            }
            await PostgresTestCluster.drop(url)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aMailedLinkSetsANewPasswordOnceAndEndsEverySession(database: StoreKind) async throws {
        try await run(on: database) { shop in
            // Ada is signed in elsewhere: that session must end with the reset.
            let elsewhere = TestClient(port: shop.port)
            let signedIn = try await elsewhere.submit(from: "/login", to: "/login", form: "email=ada%40example.com&password=ada-lovelace-1815")
            #expect(signedIn.status == 303)
            #expect(try await elsewhere.send("/account").status == 200)

            let visitor = TestClient(port: shop.port)
            let login = try await visitor.send("/login")
            #expect(login.text.contains(#"<a href="/password/forgot">Forgot your password?</a>"#))
            let asked = try await visitor.submit(from: "/password/forgot", to: "/password/forgot", form: "email=ADA%40example.com")
            #expect(asked.status == 303)
            #expect(asked.header("location") == "/login")
            #expect(try await visitor.send("/login").text.contains("If an account has that e-mail, a link to choose a new password is on its way."))

            let mail = try await ResetMail.awaitOne(in: shop.dataDirectory)
            #expect(mail.headers.contains("To: \"Ada Lovelace\" <ada@example.com>"))
            #expect(mail.text.contains("Hello Ada Lovelace,"))
            #expect(mail.link.hasPrefix("http://localhost/password/reset/"), "the request's own site, on loopback: \(mail.link)")
            let path = mail.path

            let form = try await visitor.send(path)
            #expect(form.status == 200)
            #expect(form.text.contains(#"data-view="ResetPassword""#))
            let differ = try await visitor.submit(from: path, to: path, form: "password=babbage-1834&confirm=babbage-1835")
            #expect(differ.status == 422)
            #expect(differ.text.contains("The two new passwords differ."))
            let short = try await visitor.submit(from: path, to: path, form: "password=short&confirm=short")
            #expect(short.status == 422)
            #expect(short.text.contains("The new password must be at least 8 characters."))

            let reset = try await visitor.submit(from: path, to: path, form: "password=babbage-1834&confirm=babbage-1834")
            #expect(reset.status == 303)
            #expect(reset.header("location") == "/login")
            #expect(try await visitor.send("/login").text.contains("Your password is set, and every device is signed out."))

            // The other session is over; the old password is refused, the new one signs in.
            let after = try await elsewhere.send("/account")
            #expect(after.status == 303, "a session from before the reset has ended")
            let old = try await TestClient(port: shop.port).submit(
                from: "/login", to: "/login", form: "email=ada%40example.com&password=ada-lovelace-1815")
            #expect(old.status == 422)
            let new = try await TestClient(port: shop.port).submit(
                from: "/login", to: "/login", form: "email=ada%40example.com&password=babbage-1834")
            #expect(new.status == 303)

            // Once only: the link is dead now, for a look and for a second submission alike.
            let again = try await visitor.send(path)
            #expect(again.status == 404)
            #expect(again.text.contains("This link has expired or has been used."))
            #expect(again.text.contains(#"data-view="ForgotPassword""#))
            // Sent again at once (a double click): the first sending did it, and the answer says so.
            let twice = try await visitor.submit(from: "/password/forgot", to: path, form: "password=mallory-2026&confirm=mallory-2026")
            #expect(twice.status == 303)
            #expect(try await visitor.send("/login").text.contains("This link was used a moment ago to set a new password."))
            let mallory = try await TestClient(port: shop.port).submit(
                from: "/login", to: "/login", form: "email=ada%40example.com&password=mallory-2026")
            #expect(mallory.status == 422, "a used link sets nothing")
        }
    }

    /// The access log shows the reset route's pattern, never a link's token.
    @Test func theLogHoldsNoToken() async throws {
        try await run(on: .sqlite, ["LOG_LEVEL": "info"]) { shop in
            let visitor = TestClient(port: shop.port)
            _ = try await visitor.submit(from: "/password/forgot", to: "/password/forgot", form: "email=alan%40example.com")
            let mail = try await ResetMail.awaitOne(in: shop.dataDirectory)
            let token = String(mail.path.dropFirst("/password/reset/".count))
            #expect(try await visitor.send(mail.path).status == 200)
            #expect(try await visitor.submit(from: mail.path, to: mail.path, form: "password=enigma-1939&confirm=enigma-1939").status == 303)
            // The access log's line is written once the answer has gone: wait for it.
            let deadline = ContinuousClock.now + .seconds(30)
            while !shop.harness.log.contains("POST /password/reset/{token} 303"), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let log = shop.harness.log
            #expect(log.contains("GET /password/reset/{token} 200"), "\(log.suffix(2000))")
            #expect(log.contains("POST /password/reset/{token} 303"))
            #expect(!log.contains(token), "the token is in no log line")
        }
    }

    /// The form tells nobody who has an account: the same answer, and no mail, for an address
    /// without one; malformed input is the form again.
    @Test func anUnknownAddressGetsTheSameAnswerAndNoMail() async throws {
        try await run(on: .sqlite) { shop in
            let known = try await TestClient(port: shop.port).submit(
                from: "/password/forgot", to: "/password/forgot", form: "email=grace%40example.com")
            let unknown = try await TestClient(port: shop.port).submit(
                from: "/password/forgot", to: "/password/forgot", form: "email=nobody%40example.com")
            #expect(known.status == unknown.status)
            #expect(known.header("location") == unknown.header("location"))
            #expect(known.body.isEmpty && unknown.body.isEmpty)
            let mail = try await ResetMail.awaitOne(in: shop.dataDirectory)
            #expect(mail.headers.contains("<grace@example.com>"))
            // Sent in order, so once a later mail is there, an earlier one would be too.
            _ = try await TestClient(port: shop.port).submit(from: "/password/forgot", to: "/password/forgot", form: "email=alan%40example.com")
            let mails = try await ResetMail.await(2, in: shop.dataDirectory)
            #expect(mails.allSatisfy { !$0.headers.contains("nobody@") })

            let malformed = try await TestClient(port: shop.port).submit(
                from: "/password/forgot", to: "/password/forgot", form: "email=not-an-address")
            #expect(malformed.status == 422)
            #expect(malformed.text.contains(#"data-field="email""#))
            #expect(try await shop.get("/password/reset/not-a-token").status == 404)
            #expect(try await shop.get("/password/reset/" + String(repeating: "A", count: 43)).status == 404, "a well-formed token no link has")
        }
    }

    /// Per e-mail and per client, the same whether or not the address has an account.
    @Test func askingIsLimitedPerAddressAndPerClient() async throws {
        try await run(on: .sqlite, ["PASSWORD_RESET_LIMIT": "8/hour"]) { shop in
            let client = TestClient(port: shop.port)
            for address in ["grace", "nobody"] {
                for attempt in 1...4 {
                    let reply = try await client.submit(from: "/password/forgot", to: "/password/forgot", form: "email=\(address)%40example.com")
                    #expect(reply.status == (attempt <= 3 ? 303 : 429), "\(address), attempt \(attempt)")
                    if attempt == 4 { #expect(Int(reply.header("retry-after") ?? "") ?? 0 > 3000) }
                }
            }
            // Asked again within a minute, Grace's link is not mailed again: one mail in all.
            #expect(try await ResetMail.awaitOne(in: shop.dataDirectory).headers.contains("<grace@example.com>"))
            // Eight asked from this client, refused ones too: the ninth is past its limit, whatever the address.
            let other = try await client.submit(from: "/password/forgot", to: "/password/forgot", form: "email=alan%40example.com")
            #expect(other.status == 429)
        }
    }

    /// Sends the forgotten-password form for `email` (URL-encoded) from `path`, with `Host: host`.
    func ask(_ client: TestClient, for email: String, at path: String = "/password/forgot", host: String) async throws -> TestResponse {
        _ = try await client.send(path)
        return try await client.send(path, method: "POST", form: "email=\(email)", headers: ["Host": host])
    }

    /// A link names the configured site; without one, only a request to loopback may name its
    /// own, since a `Host` is the client's to choose.
    @Test func theLinkNamesTheConfiguredSiteNeverTheClientsHost() async throws {
        try await run(on: .sqlite) { shop in
            let refused = try await ask(TestClient(port: shop.port), for: "grace%40example.com", host: "shop.attacker.example")
            #expect(refused.status == 503)
            #expect(refused.text.contains("Password reset by mail is not set up on this server yet."))
            let lookalike = try await ask(TestClient(port: shop.port), for: "grace%40example.com", host: "127.attacker.example")
            #expect(lookalike.status == 503, "a name that starts with 127. is not an address on this machine")
            _ = try await TestClient(port: shop.port).submit(from: "/password/forgot", to: "/password/forgot", form: "email=alan%40example.com")
            let mails = try await ResetMail.await(1, in: shop.dataDirectory)
            #expect(mails.count == 1 && mails[0].headers.contains("<alan@example.com>"), "none for the refused request")
        }
        try await run(on: .sqlite, ["PUBLIC_URL": "https://shop.example.com"]) { shop in
            let asked = try await ask(
                TestClient(port: shop.port), for: "grace%40example.com", at: "/password/forgot?lang=de", host: "shop.attacker.example")
            #expect(asked.status == 303)
            let mail = try await ResetMail.awaitOne(in: shop.dataDirectory)
            #expect(mail.link.hasPrefix("https://shop.example.com/password/reset/"))
            #expect(mail.headers.contains("Content-Language: de"))
            #expect(mail.text.contains("Hallo Grace Hopper,"))
            #expect(mail.text.contains("60 Minuten lang"))
        }
    }
}

/// A reset mail as the storefront wrote it to `DATA_DIR/mail`: its headers, its text part
/// (quoted-printable, decoded) and the link in it.
struct ResetMail {
    let headers: String
    let text: String
    let link: String

    /// The link's path, to send to the test's own server.
    var path: String { "/password/reset/" + (link.components(separatedBy: "/password/reset/").last ?? "") }

    init(_ source: String) throws {
        let parts = source.components(separatedBy: "\r\n\r\n")
        headers = parts.first ?? ""
        let textPart = source.components(separatedBy: "Content-Type: text/plain").dropFirst().first ?? ""
        let body = textPart.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        text = Self.decodeQuotedPrintable(body.components(separatedBy: "\r\n--").first ?? "")
        guard let link = text.split(whereSeparator: \.isWhitespace).first(where: { $0.contains("/password/reset/") }) else {
            throw Missing(what: "a reset link in \(text)")
        }
        self.link = String(link)
    }

    struct Missing: Error { let what: String }

    static func decodeQuotedPrintable(_ text: String) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.replacingOccurrences(of: "=\r\n", with: "").utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "="), index + 2 < source.count,
                let value = UInt8(String(decoding: source[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Waits until `count` reset mails are in `dataDirectory`'s mail folder: the outbox's worker
    /// sends within its poll interval (1 s); 30 s without them is a failure.
    static func await(_ count: Int, in dataDirectory: URL) async throws -> [ResetMail] {
        let folder = dataDirectory.appendingPathComponent("mail")
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("password-reset.") }
            if names.count >= count || ContinuousClock.now > deadline {
                return try names.sorted().map { try ResetMail(String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The one reset mail, once it is there.
    static func awaitOne(in dataDirectory: URL) async throws -> ResetMail {
        let mails = try await self.await(1, in: dataDirectory)
        guard mails.count == 1 else { throw Missing(what: "one reset mail, not \(mails.count)") }
        return mails[0]
    }
}
