import Foundation
import Synchronization
import Tessera
import TesseraTesting
import Testing

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
        func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
            context[Caller.self] = context.request.headers[HTTPField.Name("X-Caller")!]
            return .next
        }
    }

    /// Answers `/maintenance` by itself; nothing after it runs.
    struct Maintenance: Middleware {
        func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
            context.request.path == "/maintenance" ? .now(.text("down for maintenance", status: .serviceUnavailable)) : .next
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
        func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
            guard context.request.headers[HTTPField.Name("X-Refuse")!] == nil else { throw HTTPError(.forbidden) }
            return .next
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

    /// An app without an error step: what nobody recovers from is answered inside the chain, at
    /// its outermost step, with the status and the error page; it never goes back to the server
    /// as an error, and a handler that does not wait is still answered now, with no task.
    @Test func anErrorNoStepRecoversFromStillGetsItsStatusAndPage() async throws {
        var app = ApplicationBuilder()
        app.routes.action(Self.whoami) { _, _ in throw HTTPError(.conflict, message: "Taken.") }
        app.routes.action(Self.whoamiLater) { _, _ in
            await Task.yield()
            throw HTTPError(.conflict, message: "Taken later.")
        }
        let sessions = SessionConfiguration(secret: Data(repeating: 5, count: 32))
        let application = try app.build(middleware: [SessionMiddleware(sessions)], routeMiddleware: [])

        guard case .now(let now) = application.answer(try Request(method: .get, target: "/whoami")) else {
            Issue.record("a handler that does not wait was answered later")
            return
        }
        #expect(now.status.code == 409)
        let answerLater = application.answer(try Request(method: .get, target: "/whoami-later"))
        guard case .later = answerLater else {
            Issue.record("a handler that waits was answered now")
            return
        }
        let later = try await answerLater.value()
        #expect(later.status.code == 409, "the work answers the error; it does not throw it")

        try await application.test(.live) { client in
            for (path, message) in [("/whoami", "Taken."), ("/whoami-later", "Taken later.")] {
                let reply = try await client.send(path)
                #expect(reply.status == 409)
                #expect(reply.header("content-type")?.hasPrefix("text/html") == true)
                #expect(reply.text.contains(message))
            }
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

    // MARK: Steps that wait

    /// Looks the caller up somewhere that takes a moment (a real suspension, as a database
    /// round trip would be): it decides only after waiting, and may answer or refuse then.
    struct LookUpCallerLater: Middleware {
        func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
            guard let caller = context.request.headers[HTTPField.Name("X-Caller")!] else { return .next }
            return .later { context in
                try await Task.sleep(for: .milliseconds(5))
                switch caller {
                case "blocked": return .text("not you", status: .forbidden)
                case "broken": throw HTTPError(.serviceUnavailable, message: "The directory is down.")
                default:
                    context[Caller.self] = caller.uppercased()
                    return nil
                }
            }
        }

        func after(_ response: inout Response, for context: RequestContext) {
            response.headers.append(HTTPField(name: HTTPField.Name("X-Trace")!, value: "lookup"))
        }
    }

    static func waitingApp(routeStepWaits: Bool = false) throws -> Application {
        var app = ApplicationBuilder()
        app.routes.action(whoami) { _, context in .text(context[Caller.self] ?? "nobody") }
        app.routes.action(whoamiLater) { _, context in
            await Task.yield()
            return .text(context[Caller.self] ?? "nobody")
        }
        let steps: [any Middleware] = [LookUpCallerLater(), Trace(name: "after-lookup")]
        return try app.build(
            middleware: [Trace(name: "outer"), ErrorPageMiddleware()] + (routeStepWaits ? [] : steps),
            routeMiddleware: [RouteName()] + (routeStepWaits ? steps : [])
        )
    }

    @Test(arguments: [false, true])
    func aStepThatWaitsHandsOnWhatItFoundAndTheRestRunsAfterIt(routeStepWaits: Bool) async throws {
        for mode in [TestingMode.inProcess, .live] {
            try await Self.waitingApp(routeStepWaits: routeStepWaits).test(mode) { client in
                for path in ["/whoami", "/whoami-later"] {
                    let reply = try await client.send(path, headers: ["X-Caller": "ada"])
                    #expect(reply.text == "ADA", "\(mode) \(path): the value the step found after waiting")
                    #expect(reply.headers("x-trace") == ["after-lookup", "lookup", "outer"], "\(mode) \(path): every step entered, on the way out")
                    #expect(reply.header("x-route") == String(path == "/whoami" ? "test.whoami" : "test.whoami-later"))
                }
                #expect(try await client.send("/whoami").text == "nobody", "a step that has nothing to wait for hands on at once")
            }
        }
    }

    @Test(arguments: [false, true])
    func aStepThatWaitsMayAnswerOrThrowAndOnlyTheStepsBeforeItSeeThat(routeStepWaits: Bool) async throws {
        try await Self.waitingApp(routeStepWaits: routeStepWaits).test(.live) { client in
            let refused = try await client.send("/whoami", headers: ["X-Caller": "blocked"])
            #expect(refused.status == 403)
            #expect(refused.text == "not you")
            #expect(refused.headers("x-trace") == ["outer"], "the answering step and those after it were not entered")
            let broken = try await client.send("/whoami", headers: ["X-Caller": "broken"])
            #expect(broken.status == 503)
            #expect(broken.header("content-type")?.hasPrefix("text/html") == true, "the error step turned the throw into its page")
            #expect(broken.text.contains("The directory is down."))
        }
    }

    /// A step's wait happens in the request's task: the server's thread answers other requests
    /// meanwhile. With one server thread, a request held by a waiting step must not hold up one
    /// that needs no wait.
    @Test func aWaitingStepDoesNotHoldTheServersThread() async throws {
        let gate = AsyncGate(), arrived = AsyncGate()
        var app = ApplicationBuilder()
        app.routes.action(Self.whoami) { _, context in .text(context[Caller.self] ?? "nobody") }
        struct HeldStep: Middleware {
            let gate: AsyncGate, arrived: AsyncGate
            func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
                guard context.request.headers[HTTPField.Name("X-Hold")!] != nil else { return .next }
                let gate = self.gate, arrived = self.arrived
                return .later { context in
                    arrived.open()
                    await gate.wait()
                    context[Caller.self] = "released"
                    return nil
                }
            }
        }
        let application = try app.build(middleware: [HeldStep(gate: gate, arrived: arrived)], routeMiddleware: [])
        let server = try await TestServer.start(threads: 1, responder: application, errorResponder: application)
        defer { gate.open() }
        let client = TestClient(port: server.port), heldClient = TestClient(port: server.port)
        async let held = heldClient.send("/whoami", headers: ["X-Hold": "1"])
        await arrived.wait()
        // However long the held request waits, the one thread answers the others meanwhile.
        for _ in 0..<3 { #expect(try await client.send("/whoami").text == "nobody") }
        gate.open()
        #expect(try await held.text == "released")
        try await server.stop()
    }
    // MARK: Steps that surround the rest

    /// A task-local value a surrounding step binds, as tracing binds its span.
    enum Scope {
        @TaskLocal static var names: [String] = []
    }

    /// Binds its name for everything after it, its work in a task included, and says on the way
    /// out which names were bound then.
    struct Surround: SurroundingMiddleware {
        let name: String
        func surround(_ context: inout RequestContext, _ rest: (inout RequestContext) -> NowOrLater<Void, Response>) -> NowOrLater<Void, Response> {
            let names = Scope.names + [name]
            let answer = Scope.$names.withValue(names) { rest(&context) }
            guard case .later = answer else { return answer }
            return .later { _ in try await Scope.$names.withValue(names) { try await answer.value() } }
        }
        func after(_ response: inout Response, for context: RequestContext) {
            response.headers.append(HTTPField(name: HTTPField.Name("X-Scope")!, value: "\(name): \(Scope.names.joined(separator: " "))"))
        }
    }

    static let scope = Route<NoParameters>("test.scope", .get, "/scope")
    static let scopeLater = Route<NoParameters>("test.scope-later", .get, "/scope-later")

    static func surroundedApp(waitingStepFirst: Bool) throws -> Application {
        var app = ApplicationBuilder()
        app.routes.action(scope) { _, _ in .text(Scope.names.joined(separator: " ")) }
        app.routes.action(scopeLater) { _, _ in
            try await Task.sleep(for: .milliseconds(1))
            return .text(Scope.names.joined(separator: " "))
        }
        let inner: [any Middleware] = [Surround(name: "outer"), Trace(name: "between"), Surround(name: "inner")]
        return try app.build(
            middleware: (waitingStepFirst ? [LookUpCallerLater()] : []) + inner + [ErrorPageMiddleware()],
            routeMiddleware: [Surround(name: "route")]
        )
    }

    @Test(arguments: [false, true])
    func aSurroundingStepHoldsForEverythingAfterItWaitingOrNot(waitingStepFirst: Bool) async throws {
        for mode in [TestingMode.inProcess, .live] {
            try await Self.surroundedApp(waitingStepFirst: waitingStepFirst).test(mode) { client in
                for path in ["/scope", "/scope-later"] {
                    let reply = try await client.send(path, headers: waitingStepFirst ? ["X-Caller": "ada"] : [:])
                    #expect(reply.text == "outer inner route", "\(mode) \(path): the handler runs inside every step before it")
                    #expect(
                        reply.headers("x-scope") == ["route: outer inner route", "inner: outer inner route", "outer: outer inner route"],
                        "\(mode) \(path): the whole way out runs inside every step entered, innermost first")
                    #expect(reply.headers("x-trace") == ["between"] + (waitingStepFirst ? ["lookup"] : []))
                }
            }
        }
    }

    @Test func aStepOutsideEverySurroundingStepSeesNothingBound() async throws {
        var app = ApplicationBuilder()
        app.routes.action(Self.scope) { _, _ in .text(Scope.names.joined(separator: " ")) }
        try await app.build(middleware: [ErrorPageMiddleware()], routeMiddleware: []).test { client in
            let text = try await client.send("/scope").text
            #expect(text == "", "no surrounding step: nothing bound")
        }
    }
}

/// Opens once; everyone waiting goes on then.
final class AsyncGate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
