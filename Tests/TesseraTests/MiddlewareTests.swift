import Foundation
import Testing
import Tessera
import TesseraTesting

/// The request pipeline: steps run in the declared order, hand typed values on, and can answer
/// by themselves; route middleware runs only once a route matched. In process: no socket needed.
@Suite struct MiddlewareTests {
    /// A typed per-request value: who the request says it is, loaded once by a middleware.
    enum Caller: RequestValueKey { typealias Value = String }

    /// Appends its name to `X-Trace` on the way out, so the order of steps shows.
    struct Trace: Middleware {
        let name: String
        func after(_ response: inout Response, for context: RequestContext) {
            response.headers.append(HTTPField(name: HTTPField.Name("X-Trace")!, value: name))
        }
    }

    /// Loads the caller once, from a header, for everything after it.
    struct LoadCaller: Middleware {
        func before(_ context: inout RequestContext) throws -> Response? {
            context[Caller.self] = context.request.headers[HTTPField.Name("X-Caller")!]
            return nil
        }
    }

    /// Answers `/maintenance` by itself; nothing after it runs.
    struct Maintenance: Middleware {
        func before(_ context: inout RequestContext) throws -> Response? {
            context.request.path == "/maintenance" ? .text("down for maintenance", status: .serviceUnavailable) : nil
        }
    }

    /// Route middleware: tags the answer with the matched route's name.
    struct RouteName: Middleware {
        func after(_ response: inout Response, for context: RequestContext) {
            response.headers.append(HTTPField(name: HTTPField.Name("X-Route")!, value: context.route?.name ?? "none"))
        }
    }

    /// Refuses a request that asks to be refused, from inside the error step.
    struct Refuse: Middleware {
        func before(_ context: inout RequestContext) throws -> Response? {
            guard context.request.headers[HTTPField.Name("X-Refuse")!] == nil else { throw HTTPError(.forbidden) }
            return nil
        }
    }

    static let whoami = Route<NoParameters>("test.whoami", .get, "/whoami")
    static let whoamiLater = Route<NoParameters>("test.whoami-later", .get, "/whoami-later")

    static func app() throws -> Application {
        var app = ApplicationBuilder()
        app.routes.action(whoami) { _, context in .text(context[Caller.self] ?? "nobody") }
        app.routes.action(whoamiLater) { _, context in
            await Task.yield()
            return .text(context[Caller.self] ?? "nobody")
        }
        return try app.build(
            middleware: [Trace(name: "outer"), Maintenance(), LoadCaller(), Trace(name: "inner"), ErrorPageMiddleware(), Refuse()],
            routeMiddleware: [RouteName(), CSRFMiddleware()]
        )
    }

    @Test func stepsRunInOrderAndHandTypedValuesOn() async throws {
        try await Self.app().test { client in
            let reply = try await client.send("/whoami", headers: ["X-Caller": "ada"])
            #expect(reply.text == "ada")
            #expect(reply.headers("x-trace") == ["inner", "outer"], "the inner step's header is added first, on the way out")
            #expect(reply.header("x-route") == "test.whoami")
            #expect(try await client.send("/whoami").text == "nobody")
        }
    }

    @Test func aHandlerThatWaitsGoesThroughTheSameSteps() async throws {
        try await Self.app().test(.live) { client in
            let reply = try await client.send("/whoami-later", headers: ["X-Caller": "ada"])
            #expect(reply.text == "ada")
            #expect(reply.headers("x-trace") == ["inner", "outer"])
            #expect(reply.header("x-route") == "test.whoami-later")
        }
    }

    @Test func anErrorIsRecoveredByTheStepsBeforeItAndTheOnesBeforeThoseSeeTheAnswer() async throws {
        try await Self.app().test { client in
            let reply = try await client.send("/whoami", headers: ["X-Refuse": "yes"])
            #expect(reply.status == 403)
            #expect(reply.header("content-type")?.hasPrefix("text/html") == true, "the error step's page")
            #expect(reply.headers("x-trace") == ["inner", "outer"], "the steps outside the error step see its page on the way out")
            #expect(reply.header("x-route") == nil, "the route was never matched")
        }
    }

    /// An app without an error step: what nobody recovers from goes back to the server (which
    /// logs a fault), and its error path still answers with the status and the plain page.
    @Test func anErrorNoStepRecoversFromStillGetsItsStatusAndPage() async throws {
        var app = ApplicationBuilder()
        app.routes.action(Self.whoami) { _, _ in throw HTTPError(.conflict, message: "Taken.") }
        let sessions = SessionConfiguration(secret: Data(repeating: 5, count: 32))
        try await app.build(middleware: [SessionMiddleware(sessions)], routeMiddleware: []).test(.live) { client in
            let reply = try await client.send("/whoami")
            #expect(reply.status == 409)
            #expect(reply.header("content-type")?.hasPrefix("text/html") == true)
            #expect(reply.text.contains("Taken."))
        }
    }

    @Test func aStepCanAnswerByItself() async throws {
        try await Self.app().test { client in
            let reply = try await client.send("/maintenance")
            #expect(reply.status == 503)
            #expect(reply.text == "down for maintenance")
            #expect(reply.headers("x-trace") == ["outer"], "nothing after the answering step ran")
        }
    }

    @Test func routeMiddlewareRunsOnlyForAMatchedRoute() async throws {
        try await Self.app().test { client in
            let missing = try await client.send("/nowhere")
            #expect(missing.status == 404)
            #expect(missing.header("x-route") == nil)
            #expect(missing.headers("x-trace") == ["inner", "outer"], "error pages are answers like any other")
            // CSRF is route middleware: an unknown address is 404 for a POST too, not 403.
            #expect(try await client.send("/nowhere", method: "POST", form: "a=1").status == 404)
        }
    }

    @Test func theSameTestRunsInProcessAndLive() async throws {
        for mode in [TestingMode.inProcess, .live] {
            let text = try await Self.app().test(mode) { client in try await client.send("/whoami", headers: ["X-Caller": "grace"]).text }
            #expect(text == "grace", "\(mode)")
        }
    }
}
