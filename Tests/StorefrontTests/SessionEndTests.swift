import Foundation
import TesseraTesting
import Testing

/// A session ends on the server: a cookie copied before sign-out, or before a password change,
/// is signed out when it comes back (ASVS 7.4.1, 7.4.2).
@Suite(.serialized) struct SessionEndTests {
    /// A browser holding `cookie`, copied from another, as a thief would.
    static func holding(_ cookie: String?, port: Int) -> TestClient {
        let thief = TestClient(port: port)
        thief.cookie = cookie
        return thief
    }

    @Test func aCookieCopiedBeforeSignOutIsSignedOut() async throws {
        try await TestStorefront.run { shop in
            let browser = TestClient(port: shop.port)
            _ = try await browser.submit(from: "/login", to: "/login", form: "email=ada%40example.com&password=ada-lovelace-1815")
            let order = try await browser.send("/orders/1")
            #expect(order.status == 200)
            let stolen = browser.cookie
            let thief = Self.holding(stolen, port: shop.port)
            #expect(try await thief.send("/orders/1").status == 200, "before sign-out the copy works, as any cookie would")

            let out = try await browser.send("/logout", method: "POST", form: "")
            #expect(out.status == 303)

            let replayed = try await thief.send("/orders/1")
            #expect(replayed.status == 303)
            #expect(replayed.header("location") == "/login?next=%2Forders%2F1")
            #expect(replayed.header("set-cookie")?.contains("Max-Age=0") == true, "the replayed cookie is deleted")
            // What the copy adds to a cart goes to a new visitor's cart, not to Ada's.
            let holder = Self.holding(stolen, port: shop.port)
            let addToCart = try await holder.send("/cart/items", method: "POST", form: "productID=2&quantity=1")
            #expect(addToCart.status == 303)
            #expect(try await browser.submit(from: "/login", to: "/login", form: "email=ada%40example.com&password=ada-lovelace-1815").status == 303)
            #expect(!(try await browser.send("/cart").text.contains(#"data-product-id="2""#)), "Ada's cart is untouched")
            let home = try await thief.send("/")
            #expect(!home.text.contains("data-signed-in-as"))
        }
    }

    @Test func aPasswordChangeEndsEveryOtherSession() async throws {
        try await TestStorefront.run { shop in
            let laptop = TestClient(port: shop.port)
            _ = try await laptop.submit(from: "/login", to: "/login", form: "email=grace%40example.com&password=grace-hopper-1906")
            let phone = TestClient(port: shop.port)
            _ = try await phone.submit(from: "/login", to: "/login", form: "email=grace%40example.com&password=grace-hopper-1906")
            #expect(try await phone.send("/account").status == 200)
            let copiedFromLaptop = Self.holding(laptop.cookie, port: shop.port)

            // A visitor is sent to sign in first; the page is linked from /account.
            #expect(try await TestClient(port: shop.port).send("/account/password").status == 303)
            #expect(try await laptop.send("/account").text.contains(#"href="/account/password""#))

            let wrong = try await laptop.submit(
                from: "/account/password", to: "/account/password", form: "current=guess&password=compiler-1952&confirm=compiler-1952")
            #expect(wrong.status == 422)
            #expect(wrong.text.contains("The current password is wrong."))
            let mismatch = try await laptop.submit(
                from: "/account/password", to: "/account/password", form: "current=grace-hopper-1906&password=compiler-1952&confirm=compiler-1953")
            #expect(mismatch.status == 422)
            #expect(mismatch.text.contains("The two new passwords differ."))
            #expect(!mismatch.text.contains("compiler-1952"), "a password is never sent back")
            #expect(try await phone.send("/account").status == 200, "refused changes end nothing")

            let changed = try await laptop.submit(
                from: "/account/password", to: "/account/password", form: "current=grace-hopper-1906&password=compiler-1952&confirm=compiler-1952")
            #expect(changed.status == 303)
            #expect(changed.header("location") == "/account")
            #expect(try await laptop.send("/account").status == 200, "the device that changed it stays signed in")
            #expect(try await phone.send("/account").status == 303, "every other session ends")
            #expect(try await copiedFromLaptop.send("/account").status == 303, "a copy of the old cookie too")

            let old = try await TestClient(port: shop.port).submit(
                from: "/login", to: "/login", form: "email=grace%40example.com&password=grace-hopper-1906")
            #expect(old.status == 422)
            let new = try await TestClient(port: shop.port).submit(
                from: "/login", to: "/login", form: "email=grace%40example.com&password=compiler-1952")
            #expect(new.status == 303)
        }
    }
}

/// Password guessing is slowed down, and answered with a page that says when to try again.
@Suite struct SignInThrottleFlowTests {
    @Test func guessingOneAccountEndsIn429UntilTheWaitIsOver() async throws {
        try await TestStorefront.run { shop in
            let guesser = TestClient(port: shop.port)
            func attempt(_ password: String) async throws -> TestResponse {
                try await guesser.send("/login", method: "POST", form: "email=alan%40example.com&password=\(password)")
            }
            for guess in 1...6 {
                #expect(try await attempt("guess-\(guess)").status == 422, "attempt \(guess) is judged")
            }
            let held = try await attempt("alan-turing-1912")
            #expect(held.status == 429, "even the right password waits: the guesser must not learn it")
            let wait = try #require(held.header("retry-after").flatMap(Int.init))
            #expect((1...2).contains(wait))
            #expect(held.header("content-type")?.hasPrefix("text/html") == true)
            #expect(held.text.contains("Too many sign-in attempts"))
            #expect(held.text.contains("wait \(wait) second"))

            try await Task.sleep(for: .seconds(wait) + .milliseconds(200))
            let right = try await attempt("alan-turing-1912")
            #expect(right.status == 303, "after the wait the right password works")
        }
    }
}
