import Foundation
import Logging
import TesseraTesting
import Testing

@testable import Tessera

/// A path that holds a secret (a reset link's token) reaches no log line, whichever way its
/// request ends: answered, refused by the CSRF step, failed with a 500, cut at its deadline,
/// refused over the connection cap, or refused by the server before routing.
@Suite struct SecretPathTests {
    struct Broken: Error {}

    static func app(logger: Logger = Logger(label: "tessera")) throws -> Application {
        var app = ApplicationBuilder()
        app.routes.action(Route<NoParameters>("ok", .get, "/ok")) { _, _ in .text("ok") }
        app.routes.secret { routes in
            routes.action(Route<String>("reset", .get, "/reset/{token}")) { token, _ in
                if token.hasPrefix("stuck") { try await Task.sleep(for: .seconds(30)) }
                if token.hasPrefix("broken") { throw Broken() }
                return .text("the form")
            }
            routes.action(Route<String>("reset.submit", .post, "/reset/{token}")) { _, _ in .text("set") }
        }
        return try app.build(middleware: [ErrorPageMiddleware()], routeMiddleware: [CSRFMiddleware()], logger: logger)
    }

    @Test func theAppSaysWhichPathsHoldSecrets() throws {
        let paths = try Self.app().secretPaths
        #expect(paths.shown(for: "/reset/abc") == "/reset/{token}")
        #expect(paths.shown(for: "/reset/abc?next=/x") == "/reset/{token}")
        #expect(paths.shown(for: "/reset/abc/more") == "/reset/{token}", "a longer path still holds the token")
        #expect(paths.shown(for: "//reset//abc") == "/reset/{token}", "empty segments change nothing")
        #expect(paths.shown(for: "/%72eset/abc") == "/reset/{token}", "nor does percent-encoding")
        #expect(paths.shown(for: "/reset") == nil)
        #expect(paths.shown(for: "/ok") == nil)
        #expect(paths.shown(for: "/resets/abc") == nil)
        #expect(paths.shown(for: "/%zzeset/abc") == nil)
    }

    @Test func noLogLineHoldsTheSecret() async throws {
        let recorder = LogRecorder()
        let application = try Self.app(logger: recorder.logger(level: .info))
        let server = try await TestServer.start(
            limits: HTTPServerLimits(responseTimeout: .milliseconds(300), maxConnectionsPerIP: 2, maxBodyBytes: 1024),
            responder: application, errorResponder: application, logger: recorder.logger(level: .info))
        let port = server.port
        // Two connections held open; a third is over the cap.
        let capped = try await onThread {
            let first = try RawHTTPClient(port: port), second = try RawHTTPClient(port: port)
            for client in [first, second] {
                try client.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try client.readReply()
            }
            let over = try RawHTTPClient(port: port)
            try over.send("GET /reset/capped-secret-1 HTTP/1.1\r\nHost: x\r\n\r\n")
            return try over.readReply().status
        }
        let givingUp = ContinuousClock.now + .seconds(30)
        while server.state.openConnections > 0 {
            try #require(ContinuousClock.now < givingUp, "the server never let the connections go")
            try await Task.sleep(for: .milliseconds(5))
        }
        var answered = try await onThread {
            var statuses: [String: Int] = [:]
            statuses["answered"] = try RawHTTPClient.request(port: port, "/reset/answered-secret-2").status
            statuses["broken"] = try RawHTTPClient.request(port: port, "/reset/broken-secret-3").status
            statuses["stuck"] = try RawHTTPClient.request(port: port, "/reset/stuck-secret-4").status
            let crossSite = try RawHTTPClient(port: port)
            try crossSite.send(
                "POST /reset/csrf-secret-5 HTTP/1.1\r\nHost: x\r\nOrigin: http://elsewhere.example\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\nConnection: close\r\n\r\na=b")
            statuses["csrf"] = try crossSite.readReply().status
            let large = try RawHTTPClient(port: port)
            try large.send("POST /reset/large-secret-6 HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n")
            statuses["large"] = try large.readReply().status
            let malformed = try RawHTTPClient(port: port)
            try malformed.send("GET /reset/malformed-secret-7 HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n")
            statuses["malformed"] = try malformed.readReply().status
            return statuses
        }
        answered["capped"] = capped
        #expect(
            answered == ["answered": 200, "broken": 500, "stuck": 503, "csrf": 403, "large": 413, "malformed": 400, "capped": 503])
        // Each request's access line is written once its answer has gone.
        func accessLines() -> [String] { recorder.lines.filter { $0.hasPrefix("info ") && $0.contains(" /reset/{token} ") } }
        while accessLines().count < 7, ContinuousClock.now < givingUp + .seconds(30) {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await server.stop()
        let lines = recorder.lines
        #expect(accessLines().count == 7, "an access line for each: \(lines)")
        // libmicrohttpd's parser refused these two before their method was read; each is logged
        // with its status, not as an abort.
        #expect(lines.contains { $0.hasPrefix("info - /reset/{token} 413 ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("info - /reset/{token} 400 ") }, "\(lines)")
        #expect(!lines.contains { $0.contains("aborted") }, "\(lines)")
        #expect(lines.contains { $0.contains("handler failed") || $0.contains("request failed") }, "the 500 is logged")
        #expect(lines.contains { $0.contains("request cut short") && $0.contains("target=/reset/{token}") }, "\(lines)")
        let leaking = lines.filter { $0.contains("-secret-") }
        #expect(leaking.isEmpty, "no line holds a token: \(leaking)")
    }
}
