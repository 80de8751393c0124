import Foundation
import TesseraTesting
import Testing

/// Registration, sign-in and sign-out on a real storefront.
@Suite(.serialized) struct AccountsFlowTests {
    @Test func registerSignsInAndTheNavigationShowsTheUser() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let form = try await browser.send("/register")
            #expect(form.status == 200)
            #expect(form.text.contains(#"data-view="Register""#))
            let registered = try await browser.send(
                "/register", method: "POST",
                form: "name=Katherine+J&email=KJ%40example.com&password=orbital-1962")
            #expect(registered.status == 303)
            #expect(registered.header("location") == "/")
            let home = try await browser.send("/")
            #expect(home.text.contains(#"data-signed-in-as="Katherine J""#))
            #expect(home.text.contains("Welcome, Katherine J! Your account is ready."))
            let account = try await browser.send("/account")
            #expect(account.text.contains(#"data-user-email="kj@example.com""#))

            // The same e-mail again is refused with a message, and the form keeps what was typed.
            let again = TestClient(port: shop.port)
            let taken = try await again.submit(from: "/register", to: "/register", form: "name=Someone&email=kj%40example.com&password=another-pass")
            #expect(taken.status == 422)
            #expect(taken.text.contains("An account with this e-mail already exists."))
            #expect(taken.text.contains(#"value="Someone""#))
            #expect(!taken.text.contains("another-pass"), "a password is never sent back")
        }
    }

    @Test func badRegistrationsAreShownAgainWithMessages() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let reply = try await browser.submit(
                from: "/register", to: "/register", form: "name=%3Cb%3EX%3C%2Fb%3E&email=not-an-email&password=short")
            #expect(reply.status == 422)
            #expect(reply.text.contains(#"value="&lt;b&gt;X&lt;/b&gt;""#))
            #expect(reply.text.contains(#"data-field="email""#))
            #expect(reply.text.contains("Password must be at least 8 characters."))
        }
    }

    @Test func demoUserSignsInAndReturnsToALocalPathOnly() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            let account = try await browser.send("/account")
            #expect(account.status == 303)
            #expect(account.header("location") == "/login?next=%2Faccount")

            let login = try await browser.send(account.header("location") ?? "")
            #expect(login.text.contains(#"name="next" value="/account""#))
            let wrong = try await browser.send(
                "/login", method: "POST", form: "email=ada%40example.com&password=nope&next=%2Faccount")
            #expect(wrong.status == 422)
            #expect(wrong.text.contains("The e-mail or the password is wrong."))
            let cookieBefore = browser.cookie
            let right = try await browser.send(
                "/login", method: "POST", form: "email=ADA%40example.com&password=ada-lovelace-1815&next=%2Faccount")
            #expect(right.status == 303)
            #expect(right.header("location") == "/account")
            #expect(browser.cookie != cookieBefore, "a new session on sign-in")
            #expect(try await browser.send("/account").text.contains("Ada Lovelace"))

            for next in ["https%3A%2F%2Fevil.example%2F", "%2F%2Fevil.example", "%2F%5Cevil.example", "javascript%3Aalert(1)"] {
                let other = TestClient(port: shop.port)
                let reply = try await other.submit(
                    from: "/login", to: "/login", form: "email=grace%40example.com&password=grace-hopper-1906&next=\(next)")
                #expect(reply.status == 303, "\(next)")
                #expect(reply.header("location") == "/", "\(next) must not leave the site")
            }
        }
    }

    @Test func logoutSignsOutOnlyFromTheShop() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            _ = try await browser.submit(from: "/login", to: "/login", form: "email=alan%40example.com&password=alan-turing-1912")
            let home = try await browser.send("/")
            #expect(home.text.contains(#"data-signed-in-as="Alan Turing""#))
            let forged = try await browser.send("/logout", method: "POST", form: "", headers: ["Sec-Fetch-Site": "cross-site"])
            #expect(forged.status == 403, "another site cannot sign a shopper out")
            #expect(try await browser.send("/").text.contains("Alan Turing"))
            let out = try await browser.send("/logout", method: "POST", form: "")
            #expect(out.status == 303)
            let after = try await browser.send("/")
            #expect(!after.text.contains("data-signed-in-as"))
            #expect(after.text.contains("You are signed out."))
        }
    }
}
