import Foundation
import Synchronization
import Tessera
import TesseraTesting
import Testing

/// Sessions, cross-origin checks and forms, over real HTTP.
@Suite struct SessionFormTests {
    static let secret = Data(repeating: 7, count: 32)

    static func app(_ sessions: SessionConfiguration, counter: SignupCounter = SignupCounter()) throws -> Application {
        var app = ApplicationBuilder()
        app.register(SignupModule(counter: counter))
        return try app.build(middleware: [SessionMiddleware(sessions), ErrorPageMiddleware()])
    }

    static func start(secureCookies: Bool = false) async throws -> (TestServer, SignupCounter) {
        let counter = SignupCounter()
        let app = try Self.app(SessionConfiguration(secret: secret, secureCookies: secureCookies), counter: counter)
        return (try await TestServer.start(responder: app, errorResponder: app), counter)
    }

    typealias Browser = TestClient

    @Test func aPageWithAFormSetsNoCookieUntilTheSessionKeepsSomething() async throws {
        let (server, _) = try await Self.start()
        let browser = Browser(port: server.port)
        let page = try await browser.send("/signup")
        #expect(page.status == 200)
        #expect(page.text.contains("<form method=\"post\" action=\"/signup\">\n  <label>Name"), "the form carries no hidden field")
        #expect(!page.text.contains(#"type="hidden""#))
        #expect(page.header("set-cookie") == nil, "browsing keeps nothing, so it sets no cookie")
        let posted = try await browser.send("/signup", method: "POST", form: "name=Ada&age=36")
        #expect(posted.status == 303)
        let cookie = try #require(posted.header("set-cookie"), "the flash starts a session")
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"))
        #expect(!cookie.contains("Secure"))
        try await server.stop()

        let (secure, _) = try await Self.start(secureCookies: true)
        let securePost = try await Browser(port: secure.port).send("/signup", method: "POST", form: "name=Ada&age=36")
        #expect(securePost.header("set-cookie")?.contains("; Secure") == true)
        try await secure.stop()
    }

    @Test func cookiesAreSecureOverHTTPSAndCanBeHostOnly() async throws {
        // Behind a trusted TLS-terminating proxy, `X-Forwarded-Proto: https` makes the cookie Secure.
        let app = try Self.app(SessionConfiguration(secret: Self.secret))
        let proxied = try await TestServer.start(trustedProxies: TrustedProxies(list: "127.0.0.1")!, responder: app, errorResponder: app)
        let overHTTPS = try await Browser(port: proxied.port).send(
            "/signin", method: "POST", form: "name=ada", headers: ["X-Forwarded-Proto": "https"])
        #expect(overHTTPS.header("set-cookie")?.contains("; Secure") == true)
        let overHTTP = try await Browser(port: proxied.port).send("/signin", method: "POST", form: "name=ada")
        #expect(overHTTP.header("set-cookie")?.contains("Secure") == false)
        try await proxied.stop()
        // From anyone else the field is ignored.
        let (direct, _) = try await Self.start()
        let claimed = try await Browser(port: direct.port).send("/signin", method: "POST", form: "name=ada", headers: ["X-Forwarded-Proto": "https"])
        #expect(claimed.header("set-cookie")?.contains("Secure") == false)
        try await direct.stop()

        // `__Host-`: the prefix, Secure and Path=/, no Domain; and the session still round-trips.
        let hostOnly = try Self.app(SessionConfiguration(secret: Self.secret, hostPrefix: true))
        let server = try await TestServer.start(responder: hostOnly, errorResponder: hostOnly)
        let browser = Browser(port: server.port)
        let signedIn = try await browser.send("/signin", method: "POST", form: "name=ada")
        let cookie = try #require(signedIn.header("set-cookie"))
        #expect(cookie.hasPrefix("__Host-tessera_session="))
        #expect(cookie.contains("; Secure") && cookie.contains("Path=/") && !cookie.contains("Domain"))
        #expect(try await browser.send("/whoami").text.hasPrefix("ada "))
        try await server.stop()
    }

    @Test func aMultipartFormOverThePartLimitIs413() async throws {
        let (server, counter) = try await Self.start()
        let boundary = "xyz"
        var body = ""
        for index in 0...1_000 {
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"f\(index)\"\r\n\r\nx\r\n"
        }
        body += "--\(boundary)--\r\n"
        let reply = try await onThread { [port = server.port, body] in
            try RawHTTPClient.request(
                port: port, "/signup", method: "POST",
                headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)", "Accept": "text/html"],
                body: Array(body.utf8))
        }
        #expect(reply.status == 413)
        #expect(reply.text.contains("The form has too many parts."))
        #expect(counter.accepted.withLock { $0 } == 0)
        try await server.stop()
    }

    /// Where a browser says a post comes from decides (decision 0035): `Sec-Fetch-Site` first,
    /// `Origin` without it, and a request with neither is no browser's. What is refused is a 403
    /// and changes nothing.
    @Test func postsFromAnotherOriginAreRefusedAndChangeNothing() async throws {
        let (server, counter) = try await Self.start()
        let browser = Browser(port: server.port)
        let refused: [[String: String]] = [
            ["Sec-Fetch-Site": "cross-site"], ["Sec-Fetch-Site": "same-site"], ["Sec-Fetch-Site": "Cross-Site"],
            ["Sec-Fetch-Site": "nonsense"], ["Sec-Fetch-Site": ""],
            // Even naming this very site, a browser that says the post came from elsewhere is believed.
            ["Sec-Fetch-Site": "cross-site", "Origin": "http://localhost"],
            ["Origin": "http://evil.example"], ["Origin": "null"], ["Origin": "https://localhost"], ["Origin": "http://localhost:8443"],
            ["Origin": "http://localhost.evil.example"], ["Origin": "garbage"],
        ]
        for headers in refused {
            let reply = try await browser.send("/signup", method: "POST", form: "name=Eve&age=30", headers: headers)
            #expect(reply.status == 403, "\(headers)")
            #expect(reply.text.contains("data-status=\"403\""), "\(headers)")
            #expect(reply.header("set-cookie") == nil, "\(headers)")
        }
        #expect(counter.accepted.withLock { $0 } == 0)

        let accepted: [[String: String]] = [
            [:],  // no browser: a script, a test, a scraper
            ["Sec-Fetch-Site": "same-origin"], ["Sec-Fetch-Site": "none"],
            ["Sec-Fetch-Site": "same-origin", "Origin": "http://evil.example"],  // the browser knows best
            ["Origin": "http://localhost"], ["Origin": "http://LOCALHOST:80"],  // this site, on loopback
        ]
        for headers in accepted {
            let reply = try await Browser(port: server.port).send("/signup", method: "POST", form: "name=Ada&age=36", headers: headers)
            #expect(reply.status == 303, "\(headers)")
        }
        #expect(counter.accepted.withLock { $0 } == accepted.count)

        // A site reached by another name than loopback can only be checked against PUBLIC_URL.
        let elsewhere = try await browser.send(
            "/signup", method: "POST", form: "name=Eve&age=30", headers: ["Host": "shop.example.com", "Origin": "http://shop.example.com"])
        #expect(elsewhere.status == 403, "without PUBLIC_URL, a Host the client chose proves nothing")
        #expect(counter.accepted.withLock { $0 } == accepted.count)
        try await server.stop()

        var configured = ApplicationBuilder()
        let publicCounter = SignupCounter()
        configured.register(SignupModule(counter: publicCounter))
        configured.siteURL = SiteURL("https://shop.example.com")
        let app = try configured.build(middleware: [SessionMiddleware(SessionConfiguration(secret: Self.secret)), ErrorPageMiddleware()])
        let site = try await TestServer.start(responder: app, errorResponder: app)
        let ownOrigin = try await Browser(port: site.port).send(
            "/signup", method: "POST", form: "name=Ada&age=36", headers: ["Host": "shop.example.com", "Origin": "https://shop.example.com"])
        #expect(ownOrigin.status == 303)
        for origin in ["http://shop.example.com", "https://shop.example.com:8443", "https://evil.example", "http://localhost"] {
            let reply = try await Browser(port: site.port).send("/signup", method: "POST", form: "name=Eve&age=30", headers: ["Origin": origin])
            #expect(reply.status == 403, "\(origin)")
        }
        #expect(publicCounter.accepted.withLock { $0 } == 1)
        try await site.stop()
    }

    @Test func aFormWithErrorsIsRenderedAgainWithItsValues() async throws {
        let (server, counter) = try await Self.start()
        let browser = Browser(port: server.port)
        let reply = try await browser.send("/signup", method: "POST", form: "name=%3Cscript%3Ex%3C%2Fscript%3E&age=abc")
        #expect(reply.status == 422)
        #expect(reply.text.contains(#"<input name="name" value="&lt;script&gt;x&lt;/script&gt;">"#))
        #expect(reply.text.contains(#"<input name="age" value="abc">"#))
        #expect(reply.text.contains(#"<p class="error" data-field="age">Age must be a whole number.</p>"#))
        #expect(!reply.text.contains(#"data-field="name""#), "the name was fine")
        let empty = try await browser.send("/signup", method: "POST", form: "name=&age=5")
        #expect(empty.status == 422)
        #expect(empty.text.contains(#"<p class="error" data-field="name">Name is required.</p>"#))
        #expect(empty.text.contains(#"<p class="error" data-field="age">Age must be between 13 and 120.</p>"#))
        #expect(counter.accepted.withLock { $0 } == 0)
        try await server.stop()
    }

    @Test func successRedirectsAndTheFlashShowsOnce() async throws {
        let (server, _) = try await Self.start()
        let browser = Browser(port: server.port)
        let posted = try await browser.send("/signup", method: "POST", form: "name=Grace+H&age=45")
        #expect(posted.status == 303)
        #expect(posted.header("location") == "/signup")
        let next = try await browser.send("/signup")
        #expect(next.text.contains(#"<p class="flash">Welcome, Grace H!</p>"#))
        let again = try await browser.send("/signup")
        #expect(!again.text.contains("flash"))
        try await server.stop()
    }

    @Test func signInRotatesTheSessionAndBadCookiesGiveAnEmptySession() async throws {
        let (server, _) = try await Self.start()
        let browser = Browser(port: server.port)
        // A session that holds something: a flash, then read (the flash is taken, the id stays).
        _ = try await browser.send("/signup", method: "POST", form: "name=Grace&age=45")
        _ = try await browser.send("/signup")
        let before = try await browser.send("/whoami")
        let idBefore = try #require(before.text.split(separator: " ").last)
        #expect(before.text.hasPrefix("anonymous "))
        _ = try await browser.send("/signin", method: "POST", form: "name=ada")
        let after = try await browser.send("/whoami")
        #expect(after.text.hasPrefix("ada "))
        #expect(after.text.split(separator: " ").last != idBefore, "a new id after sign-in")

        let valid = try #require(browser.cookie)
        let value = String(valid.drop { $0 != "=" }.dropFirst())
        func flipped(at position: Int) -> String {
            var characters = Array(value)
            characters[position] = characters[position] == "A" ? "B" : "A"
            return String(characters)
        }
        let tampered = [
            "tessera_session=garbage",
            "tessera_session=\(flipped(at: 3))",  // the session id
            "tessera_session=\(flipped(at: value.count / 2))",  // an entry
            "tessera_session=\(flipped(at: value.count - 2))",  // the signature
            "tessera_session=\(value.dropLast(4))",  // cut short
            "tessera_session=\(value)AAAA",  // longer
            "tessera_session=\(value.prefix(40))",
            "tessera_session=%%%..%%%",
            "tessera_session=\(value).\(value)",
            "tessera_session=",
            // The format before: JSON and a signature, a dot between. Its holder signs in again.
            "tessera_session=eyJpZCI6ImFiYyIsImV4cGlyZXMiOjk5OTk5OTk5OTksInZhbHVlcyI6eyJ1c2VyIjoiYWRhIn19.c2lnbmF0dXJl",
        ]
        for cookie in tampered {
            let reply = try await onThread { [port = server.port] in
                try RawHTTPClient.request(port: port, "/whoami", headers: ["Cookie": cookie])
            }
            #expect(reply.status == 200, "\(cookie)")
            #expect(reply.text.hasPrefix("anonymous "), "\(cookie)")
        }
        try await server.stop()
    }

    @Test func aSessionSignedWithAnotherSecretOrExpiredIsEmpty() async throws {
        let (server, _) = try await Self.start()
        let other = try Self.app(SessionConfiguration(secret: Data(repeating: 9, count: 32), maxAge: .seconds(-10)))
        let otherServer = try await TestServer.start(responder: other, errorResponder: other)
        let foreign = Browser(port: otherServer.port)
        _ = try await foreign.send("/signin", method: "POST", form: "name=mallory")
        let cookie = try #require(foreign.cookie)
        // Expired (max-age is negative there) …
        #expect(try await foreign.send("/whoami").text.hasPrefix("anonymous "))
        // … and from another secret.
        let reply = try await onThread { [port = server.port] in
            try RawHTTPClient.request(port: port, "/whoami", headers: ["Cookie": cookie])
        }
        #expect(reply.text.hasPrefix("anonymous "))
        try await otherServer.stop()
        try await server.stop()
    }

    /// A kept secret file that is too short (empty, cut off) stops the start and stays as it
    /// is: replacing it would sign everyone out without a word.
    @Test func aKeptSecretFileTooShortStopsTheStart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-secret-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for contents in [Data(), Data(repeating: 7, count: 31)] {
            #expect(FileManager.default.createFile(atPath: directory + "/session-secret", contents: contents))
            #expect {
                try SessionConfiguration.loadSecrets(dataDirectory: directory, environment: [:])
            } throws: { error in
                (error as? SessionConfiguration.SecretFileTooShort)?.bytes == contents.count && "\(error)".contains("at least 32")
            }
            #expect(FileManager.default.contents(atPath: directory + "/session-secret") == contents, "left as it was")
        }
    }

    @Test func theSecretComesFromTheEnvironmentOrIsKeptInTheDataDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-secret-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let generated = try SessionConfiguration.loadSecrets(dataDirectory: directory, environment: [:])
        #expect(generated.count == 1 && generated[0].count == 32)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/session-secret")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try SessionConfiguration.loadSecrets(dataDirectory: directory, environment: [:]) == generated, "kept across restarts")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["session-secret"], "no partial file left")
        let (new, old) = (String(repeating: "n", count: 40), String(repeating: "o", count: 32))
        let fromEnvironment = try SessionConfiguration.loadSecrets(dataDirectory: directory, environment: ["SESSION_SECRET": new])
        #expect(fromEnvironment == [Data(new.utf8)])
        let rotating = try SessionConfiguration.loadSecrets(dataDirectory: directory, environment: ["SESSION_SECRET": "\(new), \(old)"])
        #expect(rotating == [Data(new.utf8), Data(old.utf8)], "the current secret first, then the previous")
        for short in ["short", "\(new) short"] {
            #expect(throws: SessionConfiguration.SecretTooShort.self) {
                try SessionConfiguration.loadSecrets(dataDirectory: directory, environment: ["SESSION_SECRET": short])
            }
        }
    }
}
