import Foundation
import Tessera
import TesseraTesting
import Testing

/// What caches may keep, decided by the session step from what the answer took from the
/// session: nothing private may outlive a sign-out in a shared cache or the Back button.
@Suite struct CachePolicyTests {
    struct CacheModule: FeatureModule {
        static let plain = Route<NoParameters>("cache.plain", .get, "/plain")
        static let form = Route<NoParameters>("cache.form", .get, "/form")
        static let signIn = Route<NoParameters>("cache.sign-in", .post, "/sign-in")
        static let mine = Route<NoParameters>("cache.mine", .get, "/mine")
        static let own = Route<NoParameters>("cache.own", .get, "/own")
        static let ownKeeping = Route<NoParameters>("cache.own-keeping", .get, "/own-keeping")

        func register(in app: inout ApplicationBuilder) {
            // Reads nothing from the session.
            app.routes.action(Self.plain) { _, _ in .text("plain") }
            // A form: it carries nothing of the session.
            app.routes.action(Self.form) { _, _ in
                Response.html(Array(#"<form method="post" action="/sign-in"><button>Sign in</button></form>"#.utf8))
            }
            // Signs someone in.
            app.routes.action(Self.signIn) { _, context in
                context.session["user"] = "ada"
                return .redirect(to: "/mine")
            }
            // Shows who is signed in, if anyone.
            app.routes.action(Self.mine) { _, context in
                Response.html(Array("<p>\(context.session["user"] ?? "nobody")</p>".utf8))
            }
            // Chooses its own caching.
            app.routes.action(Self.own) { _, context in
                var response = Response.html(Array("<p>\(context.session["user"] ?? "nobody")</p>".utf8))
                response.headers[.cacheControl] = "public, max-age=60"
                return response
            }
            // Chooses its own caching, and keeps something in the session.
            app.routes.action(Self.ownKeeping) { _, context in
                context.session["seen"] = "yes"
                var response = Response.html(Array("<p>seen</p>".utf8))
                response.headers[.cacheControl] = "public, max-age=60"
                return response
            }
        }
    }

    static func app() throws -> Application {
        var app = ApplicationBuilder()
        app.register(CacheModule())
        let sessions = SessionConfiguration(secret: Data(repeating: 5, count: 32))
        return try app.build(middleware: [SessionMiddleware(sessions), ErrorPageMiddleware()], routeMiddleware: [CSRFMiddleware()])
    }

    @Test func anAnswerThatUsedNoSessionIsLeftToCaches() async throws {
        try await Self.app().test { client in
            let plain = try await client.send("/plain")
            #expect(plain.header("cache-control") == nil)
            #expect(plain.headers("set-cookie").isEmpty)
            // Asking an anonymous session who is signed in finds nobody: no cookie (no form, nothing
            // kept), but a signed-in visitor would see another page, so no shared cache keeps it.
            let nobody = try await client.send("/mine")
            #expect(nobody.text.contains("nobody"))
            #expect(nobody.headers("set-cookie").isEmpty, "a visit that keeps nothing sets no cookie")
            #expect(nobody.header("cache-control") == "private, no-cache")
        }
    }

    @Test func aFormTakesNothingFromTheSessionAndStaysCacheable() async throws {
        try await Self.app().test { client in
            let form = try await client.send("/form")
            #expect(form.header("cache-control") == nil)
            #expect(form.headers("set-cookie").isEmpty, "a form carries no token, so showing one starts no session")
        }
    }

    @Test func aSignedInSessionIsNeverStored() async throws {
        try await Self.app().test { client in
            let signIn = try await client.send("/sign-in", method: "POST", form: "")
            #expect(signIn.status == 303)
            #expect(signIn.header("cache-control") == "private, no-store")
            #expect(try await client.send("/mine").header("cache-control") == "private, no-store")
            #expect(try await client.send("/form").header("cache-control") == nil, "it read nothing of the session")
            #expect(try await client.send("/mine").text.contains("ada"))
            // The app's own choice stands, and an answer that reads nothing stays cacheable.
            #expect(try await client.send("/own").header("cache-control") == "public, max-age=60")
            // Unless it carries a new cookie: an answer that starts a session is never a shared one.
            let firstVisit = try await Self.app().test { fresh in try await fresh.send("/own-keeping") }
            #expect(firstVisit.headers("set-cookie").count == 1)
            #expect(firstVisit.header("cache-control") == "private, no-cache")
            let firstVisitWithoutForm = try await Self.app().test { fresh in try await fresh.send("/own") }
            #expect(firstVisitWithoutForm.headers("set-cookie").isEmpty)
            #expect(firstVisitWithoutForm.header("cache-control") == "public, max-age=60")
            #expect(try await client.send("/plain").header("cache-control") == nil)
        }
    }
}
