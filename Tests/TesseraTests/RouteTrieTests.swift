import HTTPTypes
import TesseraHTTP
import Testing

@testable import Tessera

/// The router's tree of patterned routes, asked directly.
@Suite struct RouteTrieTests {
    /// The patterned routes as a tree: where a literal and a parameter both fit, both are
    /// walked, and the route registered first wins; a method only another match answers is a 405.
    @Test func overlappingPatternsAreDecidedInRegistrationOrder() throws {
        var routes = RouterBuilder()
        routes.action(Route<String>("a.x.c", .get, "/a/{x}/c")) { _, _ in .text("x") }
        routes.action(Route<String>("a.b.y", .get, "/a/b/{y}")) { _, _ in .text("y") }
        routes.action(Route<Int>("a.b.n", .post, "/a/b/{n}")) { _, _ in .text("n") }
        routes.action(Route<String>("a.b.y.z", .get, "/a/b/{y}/z")) { _, _ in .text("z") }
        let router = try routes.build(routeMiddleware: [])
        func matched(_ method: HTTPRequest.Method, _ target: String) throws -> String? {
            guard case .route(let entry, let parameters) = try router.match(try Request(method: method, target: target)) else { return nil }
            return entry.name + " " + "\(parameters)"
        }
        #expect(try matched(.get, "/a/b/c") == "a.x.c b", "both fit: the first registered")
        #expect(try matched(.get, "/a/b/d") == "a.b.y d", "only the literal branch fits")
        #expect(try matched(.get, "/a/q/c") == "a.x.c q", "only the parameter branch fits")
        #expect(try matched(.get, "/a/b/d/z") == "a.b.y.z d")
        #expect(try matched(.post, "/a/b/7") == "a.b.n 7")
        #expect(throws: HTTPError.self, "a POST whose value does not fit the Int parameter: GET answers it") {
            try router.match(try Request(method: .post, target: "/a/b/seven"))
        }
        for target in ["/a/b", "/a//c", "/a/b/c/", "/a/b/d/z/", "/b/b/c"] {
            #expect(throws: HTTPError.self, "\(target)") { try router.match(try Request(method: .get, target: target)) }
        }
    }
}
