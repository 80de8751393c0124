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
        func handle(_ context: RequestContext, next: RequestResponder) async throws -> Response {
            var response = try await next(context)
            response.headers.append(HTTPField(name: HTTPField.Name("X-Trace")!, value: name))
            return response
        }
    }

    /// Loads the caller once, from a header, for everything after it.
    struct LoadCaller: Middleware {
        func handle(_ context: RequestContext, next: RequestResponder) async throws -> Response {
            var context = context
            context[Caller.self] = context.request.headers[HTTPField.Name("X-Caller")!]
            return try await next(context)
        }
    }

    /// Answers `/maintenance` by itself; nothing after it runs.
    struct Maintenance: Middleware {
        func handle(_ context: RequestContext, next: RequestResponder) async throws -> Response {
            context.request.path == "/maintenance" ? .text("down for maintenance", status: .serviceUnavailable) : try await next(context)
        }
    }

    /// Route middleware: tags the answer with the matched route's name.
    struct RouteName: Middleware {
        func handle(_ context: RequestContext, next: RequestResponder) async throws -> Response {
            var response = try await next(context)
            response.headers.append(HTTPField(name: HTTPField.Name("X-Route")!, value: context.route?.name ?? "none"))
            return response
        }
    }

    static let whoami = Route<NoParameters>("test.whoami", .get, "/whoami")

    static func app() throws -> Application {
        var app = ApplicationBuilder()
        app.routes.action(whoami) { _, context in .text(context[Caller.self] ?? "nobody") }
        return try app.build(
            middleware: [Trace(name: "outer"), Maintenance(), LoadCaller(), Trace(name: "inner"), ErrorPageMiddleware()],
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
