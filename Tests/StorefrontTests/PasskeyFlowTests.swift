import Foundation
import Tessera
import TesseraTesting
import Testing

/// Passkeys on a real storefront, over HTTP, with TesseraTesting's software authenticator in the
/// browser's place: a signed-in shopper adds one, signs out, signs in with it and no password;
/// a replayed answer, another page's origin, another relying party and a challenge from another
/// session are refused with the sign-in page (422), and nobody is signed in.
@Suite(.serialized) struct PasskeyFlowTests {
    /// What TestClient's `Host: localhost` makes the page's origin.
    static let origin = "http://localhost"

    struct Options: Decodable {
        struct Party: Decodable { let id: String }
        struct User: Decodable { let id: String }
        let challenge: String
        let rp: Party?
        let rpId: String?
        let user: User?
    }

    static func options(_ browser: TestClient, _ path: String, page: String) async throws -> (options: Options, challenge: [UInt8]) {
        _ = try await browser.send(page)
        // As passkeys.js sends it: a same-origin fetch, which the browser says is one.
        let reply = try await browser.send(path, method: "POST", headers: ["Sec-Fetch-Site": "same-origin"])
        #expect(reply.status == 200)
        #expect(reply.header("content-type") == "application/json")
        #expect(reply.header("cache-control") == "no-store")
        let options = try JSONDecoder().decode(Options.self, from: Data(reply.text.utf8))
        return (options, try #require(Base64URL.decode(Substring(options.challenge))))
    }

    static func field(_ name: String, _ bytes: [UInt8]) -> String {
        "\(name)=\(Base64URL.encode(bytes))"
    }

    static func signInForm(_ authenticator: inout SoftwareAuthenticator, challenge: [UInt8], origin: String = origin) -> String {
        let signed = authenticator.assertion(challenge: challenge, origin: origin)
        return [
            field("credentialID", authenticator.credentialID), field("clientDataJSON", signed.clientData),
            field("authenticatorData", signed.authenticatorData), field("signature", signed.signature), "next=%2Forders",
        ].joined(separator: "&")
    }

    /// Ada signs in with her password and adds the authenticator's passkey; the client is signed out again after.
    static func register(_ authenticator: SoftwareAuthenticator, shop: TestStorefront) async throws {
        let browser = TestClient(port: shop.port)
        let login = try await browser.submit(from: "/login", to: "/login", form: "email=ada%40example.com&password=ada-lovelace-1815")
        #expect(login.status == 303)
        let (options, challenge) = try await Self.options(browser, "/account/passkeys/options", page: "/account")
        #expect(options.rp?.id == "localhost")
        #expect(options.user.flatMap { Base64URL.decode(Substring($0.id)) }?.count == 8)
        let made = authenticator.registration(challenge: challenge, origin: Self.origin)
        let added = try await browser.submit(
            from: "/account", to: "/account/passkeys",
            form: field("clientDataJSON", made.clientData) + "&" + field("attestationObject", made.attestationObject))
        #expect(added.status == 303)
        let account = try await browser.send("/account")
        #expect(account.text.contains(#"data-passkey-count="1""#))
        #expect(account.text.contains("Your passkey is added."))
        _ = try await browser.submit(from: "/account", to: "/logout", form: "")
    }

    @Test func aShopperAddsAPasskeyAndSignsInWithItAlone() async throws {
        try await TestStorefront.run { shop in
            var authenticator = SoftwareAuthenticator(relyingPartyID: "localhost")
            try await Self.register(authenticator, shop: shop)

            let visitor = TestClient(port: shop.port)
            let page = try await visitor.send("/login")
            #expect(page.text.contains(#"data-passkey-sign-in"#))
            #expect(page.text.contains("Sign in with a passkey"))
            let (options, challenge) = try await Self.options(visitor, "/login/passkey/options", page: "/login")
            #expect(options.rpId == "localhost")
            let form = Self.signInForm(&authenticator, challenge: challenge)
            let cookieBefore = visitor.cookie
            let signedIn = try await visitor.submit(from: "/login", to: "/login/passkey", form: form)
            #expect(signedIn.status == 303)
            #expect(signedIn.header("location") == "/orders")
            #expect(visitor.cookie != cookieBefore, "a new session on sign-in")
            #expect(try await visitor.send("/account").text.contains(#"data-user-email="ada@example.com""#))
            #expect(try await visitor.send("/account").text.contains("last used"))

            // The same answer again, from a new visitor: its challenge was used.
            let replayer = TestClient(port: shop.port)
            let replayed = try await replayer.submit(from: "/login", to: "/login/passkey", form: form)
            #expect(replayed.status == 422)
            #expect(replayed.text.contains("That passkey request has expired or was used already."))
            #expect(try await replayer.send("/account").status == 303, "nobody is signed in")
        }
    }

    @Test func answersForAnotherSiteOrSessionAreRefused() async throws {
        try await TestStorefront.run { shop in
            var authenticator = SoftwareAuthenticator(relyingPartyID: "localhost")
            try await Self.register(authenticator, shop: shop)

            let visitor = TestClient(port: shop.port)
            // A page of another origin (a phishing site relaying the challenge).
            var (_, challenge) = try await Self.options(visitor, "/login/passkey/options", page: "/login")
            let phished = try await visitor.submit(
                from: "/login", to: "/login/passkey",
                form: Self.signInForm(&authenticator, challenge: challenge, origin: "http://evil.example"))
            #expect(phished.status == 422)
            #expect(phished.text.contains("The passkey could not be verified."))
            // An authenticator that signed for another relying party.
            var elsewhere = authenticator
            elsewhere.relyingPartyID = "evil.example"
            (_, challenge) = try await Self.options(visitor, "/login/passkey/options", page: "/login")
            #expect(
                try await visitor.submit(from: "/login", to: "/login/passkey", form: Self.signInForm(&elsewhere, challenge: challenge)).status == 422)
            // A challenge issued to another visitor's session.
            let other = TestClient(port: shop.port)
            let (_, foreign) = try await Self.options(other, "/login/passkey/options", page: "/login")
            let stolen = try await visitor.submit(from: "/login", to: "/login/passkey", form: Self.signInForm(&authenticator, challenge: foreign))
            #expect(stolen.status == 422)
            // A changed signature; a field that is not base64url; an unknown passkey.
            (_, challenge) = try await Self.options(visitor, "/login/passkey/options", page: "/login")
            let form = Self.signInForm(&authenticator, challenge: challenge)
            #expect(
                try await visitor.submit(
                    from: "/login", to: "/login/passkey",
                    form: form.replacingOccurrences(of: "signature=ME", with: "signature=MF")
                ).status == 422)
            #expect(
                try await visitor.submit(
                    from: "/login", to: "/login/passkey", form: "credentialID=%25%25&clientDataJSON=x&authenticatorData=y&signature=z"
                ).status == 422)
            (_, challenge) = try await Self.options(visitor, "/login/passkey/options", page: "/login")
            var stranger = SoftwareAuthenticator(relyingPartyID: "localhost")
            let unknown = try await visitor.submit(from: "/login", to: "/login/passkey", form: Self.signInForm(&stranger, challenge: challenge))
            #expect(unknown.status == 422)
            #expect(unknown.text.contains("This passkey is not registered with us."))
            #expect(try await visitor.send("/account").status == 303, "nobody is signed in")
            // Options for adding a passkey need a signed-in shopper.
            #expect(try await visitor.send("/account/passkeys/options", method: "POST", headers: ["Sec-Fetch-Site": "same-origin"]).status == 403)
        }
    }
}
