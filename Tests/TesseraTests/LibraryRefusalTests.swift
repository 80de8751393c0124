import Foundation
import TesseraTesting
import TesseraViews
import Testing

@testable import Tessera

/// What libmicrohttpd refuses inside its own parser (patch 0007) is answered by the app's error
/// step, like every other refusal: the site's error page, in the visitor's language when the
/// head was read that far.
@Suite struct LibraryRefusalTests {
    static let german = Language("de")

    static func app() throws -> Application {
        var app = ApplicationBuilder()
        app.routes.action(Route<NoParameters>("ok", .get, "/ok")) { _, _ in .text("ok") }
        app.routes.action(Route<NoParameters>("ok.post", .post, "/ok")) { _, _ in .text("ok") }
        let languages = [Language("en", currencies: ["EUR"]), Language("de", currencies: ["EUR"])]
        return try app.build(middleware: [LanguageMiddleware(languages: languages), ErrorPageMiddleware()], routeMiddleware: [])
    }

    /// The app's answer to `raw`, sent alone on a new connection; the server must go on serving.
    static func answer(to raw: String) async throws -> TestResponse {
        let application = try app()
        let server = try await TestServer.start(responder: application, errorResponder: application)
        let port = server.port
        let reply = try await onThread {
            let client = try RawHTTPClient(port: port, timeout: 5)
            try client.send(raw)
            return try client.readReply()
        }
        #expect(try await server.assertServing().status == 200, "the server goes on")
        try await server.stop()
        return reply
    }

    @Test(arguments: [
        ("POST /ok HTTP/1.1\r\nHost: x\r\nAccept-Language: de\r\nContent-Length: abc\r\n\r\n", ServerRefusal.contentLengthNotANumber),
        (
            "POST /ok HTTP/1.1\r\nHost: x\r\nAccept-Language: de\r\nContent-Length: 99999999999999999999999\r\n\r\n",
            .bodyTooLarge(bytes: HTTPServerLimits().maxBodyBytes)
        ),
        ("POST /ok HTTP/1.1\r\nHost: x\r\nAccept-Language: de\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n", .chunkedBodyMalformed),
    ])
    func aRefusalAfterTheHeadIsTheErrorPageInTheVisitorsLanguage(raw: String, refusal: ServerRefusal) async throws {
        let reply = try await Self.answer(to: raw)
        #expect(reply.status == refusal.status.code)
        #expect(reply.header("content-language") == "de", "\(reply.headers)")
        #expect(reply.header("content-type") == "text/html; charset=utf-8")
        #expect(reply.text.contains(refusal.text.string(in: Self.german)), "\(reply.text)")
        #expect(reply.header("connection") == "close")
    }

    /// Refused before any header was read: the error page in the site's first language.
    @Test(arguments: [
        ("GET\r\n\r\n", ServerRefusal.requestLineMalformed),
        (" / HTTP/1.1\r\nHost: x\r\n\r\n", .requestLineMalformed),
        ("GET /ok HTTP/2.0\r\nHost: x\r\nAccept-Language: de\r\n\r\n", .httpVersionNotSupported),
    ])
    func aRefusalOfTheRequestLineIsTheErrorPage(raw: String, refusal: ServerRefusal) async throws {
        let reply = try await Self.answer(to: raw)
        #expect(reply.status == refusal.status.code)
        #expect(reply.header("content-type") == "text/html; charset=utf-8")
        #expect(reply.text.contains(refusal.english), "\(reply.text)")
    }
}
