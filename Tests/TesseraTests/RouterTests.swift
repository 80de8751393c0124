import Foundation
import Tessera
import TesseraTesting
import Testing

/// Routing, URL generation and error answers: in process where only the app matters, over real
/// HTTP where the server's part (framing, `HEAD`, early refusals) is what is tested.
@Suite struct RouterTests {
    static func app(developmentMode: Bool = false, withPurchases: Bool = true) throws -> Application {
        var app = ApplicationBuilder()
        app.register(ShopModule())
        if withPurchases { app.register(PurchasesModule()) }
        app.errorPages[.notFound] = TeapotErrorPage()
        let sessions = SessionConfiguration(secret: Data(repeating: 3, count: 32))
        return try app.build(middleware: [SessionMiddleware(sessions), ErrorPageMiddleware()], developmentMode: developmentMode)
    }

    static func start(_ app: Application, limits: HTTPServerLimits = HTTPServerLimits()) async throws -> TestServer {
        try await TestServer.start(limits: limits, responder: app, errorResponder: app)
    }

    static func get(_ port: Int, _ target: String, headers: [String: String] = [:]) async throws -> TestResponse {
        try await onThread { try RawHTTPClient.request(port: port, target, headers: headers) }
    }

    @Test func typedParametersMatchOrGive404() async throws {
        try await Self.app().test { client in
            let uuid = UUID()
            #expect(try await client.send("/items/\(uuid.uuidString.lowercased())").text == "item \(uuid.uuidString.lowercased())")
            #expect(try await client.send("/named/caf%C3%A9").text == "named café")
            // One spelling per address: extra or trailing separators are not aliases.
            #expect(try await client.send("/pages/1").status == 200)
            for target in [
                "/items/not-a-uuid", "/pages/abc", "/pages/12abc", "/pages/+1", "/pages/01", "/pages/1/unknown", "/nothing",
                "/pages//1", "//pages/1", "/pages/1/", "/pages/1//", "/named//caf%C3%A9",
                // and each value has its own spelling: an upper-case UUID, an escaped letter or digit
                "/items/\(uuid.uuidString)", "/p%61ges/1", "/pages/%31", "/named/%63af%C3%A9",
            ] {
                let reply = try await client.send(target)
                #expect(reply.status == 404, "\(target)")
                #expect(reply.text.contains("custom-404"), "the 404 controller renders it: \(target)")
                #expect(reply.text.contains("<title>Not found</title>"), "inside the layout: \(target)")
            }
        }
    }

    @Test func wrongMethodIs405WithAllowAndHeadIsServedByGet() async throws {
        let server = try await Self.start(try Self.app())
        let port = server.port
        let put = try await onThread { try RawHTTPClient.request(port: port, "/pages", method: "PUT") }
        #expect(put.status == 405)
        #expect(put.header("allow") == "GET, HEAD, POST")
        let head = try await onThread { try RawHTTPClient.request(port: port, "/pages", method: "HEAD") }
        #expect(head.status == 200)
        #expect(head.header("content-length") == "4")
        // The POST route exists; from another site it is refused, not "not allowed".
        let post = try await onThread { try RawHTTPClient.request(port: port, "/pages", method: "POST", headers: ["Sec-Fetch-Site": "cross-site"]) }
        #expect(post.status == 403)
        // CSRF is checked once a route matched: a POST to nowhere is a 404, not a 403.
        let nowhere = try await onThread {
            try RawHTTPClient.request(port: port, "/nowhere", method: "POST", headers: ["Sec-Fetch-Site": "cross-site"])
        }
        #expect(nowhere.status == 404)
        try await server.stop()
    }

    @Test func reverseRoutesRoundTrip() async throws {
        let uuid = UUID()
        let paths = [
            ShopRoutes.page.path(42), ShopRoutes.fast.path(7), ShopRoutes.item.path(uuid), ShopRoutes.named.path("a b?c&d é"), ShopRoutes.list.path,
        ]
        #expect(paths == ["/pages/42", "/pages/7/fast", "/items/\(uuid.uuidString.lowercased())", "/named/a%20b%3Fc%26d%20%C3%A9", "/pages"])
        // Generated, then matched: each path reaches its own route with the same value.
        try await Self.app().test { client in
            #expect(try await client.send(paths[3]).text == "named a b?c&d é")
            #expect(try await client.send(paths[2]).text == "item \(uuid.uuidString.lowercased())")
            #expect(try await client.send(paths[4]).text == "list")
            let page = try await client.send(paths[0] + "?buffered")
            #expect(page.text.contains("<title>Page 42</title>"))
        }
    }

    @Test func clashingRoutesAreReportedWithBothNames() {
        var app = ApplicationBuilder()
        app.routes.action(Route<Int>("first.route", .get, "/things/{id}")) { _, _ in .text("a") }
        app.routes.action(Route<String>("second.route", .get, "/things/{slug}")) { _, _ in .text("b") }
        app.routes.action(Route<NoParameters>("third.route", .get, "/things/new")) { _, _ in .text("c") }
        #expect(throws: RouteTableError.clash(first: "first.route", second: "second.route", method: .get, pattern: "/things/{id}")) {
            _ = try app.build()
        }
        do {
            _ = try app.build()
        } catch {
            #expect(error.description == "routes “first.route” and “second.route” both answer GET /things/{id}")
        }
    }

    @Test func aPatternThatDoesNotFitItsParametersIsRefusedWithTheRoutesName() {
        for (route, segments) in [
            (Route<Int>("catalog.product", .get, "/products"), 0),
            (Route<Int>("catalog.pair", .get, "/products/{id}/{slug}"), 2),
        ] {
            var app = ApplicationBuilder()
            app.routes.action(route) { _, _ in .text("a") }
            #expect(throws: RouteTableError.parametersMismatch(route: route.name, pattern: route.pattern, parameterCount: 1)) {
                _ = try app.build()
            }
            #expect(segments != 1)
        }
        var fine = ApplicationBuilder()
        fine.routes.action(Route<NoParameters>("list", .get, "/products")) { _, _ in .text("a") }
        fine.routes.action(Route<Int>("item", .get, "/products/{id}")) { _, _ in .text("b") }
        #expect(throws: Never.self) { _ = try fine.build() }
        let message = RouteTableError.parametersMismatch(route: "catalog.product", pattern: "/products", parameterCount: 1).description
        #expect(message == "route “catalog.product”: its pattern /products has 0 {…} segment(s), but its parameters read 1")
    }

    /// A step that answers 403 unless the request carries `X-Staff`, and marks what it let through.
    private struct StaffOnly: Middleware {
        func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
            guard context.request.headers[HTTPField.Name("X-Staff")!] != nil else {
                return .now(.text("staff only", status: .forbidden))
            }
            return .next
        }

        func after(_ response: inout Response, for context: RequestContext) {
            response.headers[HTTPField.Name("X-Group")!] = (response.headers[HTTPField.Name("X-Group")!] ?? "") + "staff;"
        }
    }

    @Test func aGroupsMiddlewareRunsForItsRoutesOnlyAndGroupsNest() async throws {
        var app = ApplicationBuilder()
        app.routes.action(Route<NoParameters>("open", .get, "/open")) { _, _ in .text("open") }
        app.routes.group(StaffOnly()) { admin in
            admin.action(Route<NoParameters>("admin.home", .get, "/admin")) { _, _ in .text("admin") }
            admin.group(StaffOnly()) { inner in
                inner.action(Route<Int>("admin.item", .get, "/admin/items/{id}")) { id, _ in .text("item \(id)") }
            }
        }
        try await app.build().test { client in
            let open = try await client.send("/open")
            #expect(open.text == "open")
            #expect(open.header("x-group") == nil)
            #expect(try await client.send("/admin").status == 403)
            #expect(try await client.send("/admin/items/3").status == 403)
            let admin = try await client.send("/admin", headers: ["X-Staff": "1"])
            #expect(admin.text == "admin")
            #expect(admin.header("x-group") == "staff;")
            let item = try await client.send("/admin/items/3", headers: ["X-Staff": "1"])
            #expect(item.text == "item 3")
            #expect(item.header("x-group") == "staff;staff;")
            #expect(try await client.send("/admin/nothing", headers: ["X-Staff": "1"]).status == 404)
        }
    }

    @Test func errorsAnswerJSONWhenAskedAndHideInternals() async throws {
        try await Self.app().test { client in
            let json = try await client.send("/nothing", headers: ["Accept": "application/json"])
            #expect(json.status == 404)
            #expect(json.header("content-type") == "application/json; charset=utf-8")
            #expect(json.text == #"{"error":{"message":"There is nothing at this address.","status":404}}"#)

            let boom = try await client.send("/boom")
            #expect(boom.status == 500)
            #expect(boom.text.contains("data-status=\"500\""))
            #expect(!boom.text.contains("hunter2"))
            #expect(!boom.text.contains("DatabaseDown"))
            let boomJSON = try await client.send("/boom", headers: ["Accept": "application/json"])
            #expect(boomJSON.text == #"{"error":{"message":"Something went wrong on our side.","status":500}}"#)
        }
        try await Self.app(developmentMode: true).test { client in
            let detailed = try await client.send("/boom")
            #expect(detailed.status == 500)
            #expect(detailed.text.contains("DatabaseDown"), "development mode shows what failed")
        }
    }

    /// Only a model that opts in (``JSONPageModel``) answers as JSON, and only with the fields its
    /// JSON type names; a model that is merely `Encodable` (a `String` here) stays HTML.
    @Test func aModelThatOptsInAnswersAsJSONWhenAsked() async throws {
        try await Self.app().test { client in
            let json = try await client.send("/pages/9", headers: ["Accept": "application/json"])
            #expect(json.status == 200)
            #expect(json.header("content-type") == "application/json; charset=utf-8")
            #expect(json.text == #"{"heading":"Page 9"}"#, "the model's other fields stay on the server")
            let encodable = try await client.send("/form-region", headers: ["Accept": "application/json"])
            #expect(encodable.status == 200)
            #expect(encodable.header("content-type") == "text/html; charset=utf-8", "an Encodable model is not published")
            #expect(!encodable.text.hasPrefix("\""))
            let html = try await client.send("/pages/9?buffered", headers: ["Accept": "text/html,application/xhtml+xml,*/*;q=0.8"])
            #expect(html.header("content-type") == "text/html; charset=utf-8")
            #expect(html.text.contains("<h1>Page 9</h1>"))
        }
    }

    @Test func everyErrorStatusIsAPageInTheLayout() async throws {
        let server = try await Self.start(try Self.app(), limits: HTTPServerLimits(maxBodyBytes: 100))
        let port = server.port
        let cases: [(String, String, [UInt8], Int)] = [
            ("GET", "/a%00b", [], 400),
            ("POST", "/pages", [], 403),  // from another site (below)
            ("GET", "/nowhere", [], 404),
            ("DELETE", "/pages/1", [], 405),
            ("POST", "/pages", Array(repeating: 65, count: 500), 413),
            ("GET", "/boom", [], 500),
        ]
        for (method, target, body, status) in cases {
            let headers = status == 403 ? ["Sec-Fetch-Site": "cross-site"] : [:]
            let reply = try await onThread { try RawHTTPClient.request(port: port, target, method: method, headers: headers, body: body) }
            #expect(reply.status == status, "\(method) \(target)")
            #expect(reply.text.contains("<!DOCTYPE html>"), "\(method) \(target) is a full page")
            #expect(reply.text.contains("<main>"), "inside the layout")
            if status != 404 { #expect(reply.text.contains("data-status=\"\(status)\""), "\(method) \(target)") }
        }
        try await server.stop()
    }

    @Test func serverLevelErrorsUseTheSameErrorPages() async throws {
        let server = try await Self.start(try Self.app())
        let port = server.port
        let badPath = try await Self.get(port, "/a%2Fb")
        #expect(badPath.status == 400)
        #expect(badPath.text.contains("data-view=\"ErrorPage\""))
        let unknownMethod = try await onThread { try RawHTTPClient.request(port: port, "/pages", method: "BREW") }
        #expect(unknownMethod.status == 501)
        #expect(unknownMethod.text.contains("data-status=\"501\""))
        try await server.stop()
    }
}
