import Foundation
import Tessera
import TesseraTesting
import Testing

/// An error that knows the way back: answered as the error it carries, with a link on its page.
@Suite struct ErrorPageLinkTests {
    static let conflict = Route<NoParameters>("test.linked-conflict", .get, "/linked-conflict")

    @Test func aLinkedErrorKeepsItsAnswerAndItsPageLinksBack() async throws {
        var app = ApplicationBuilder()
        app.routes.action(Self.conflict) { _, _ in
            throw HTTPError(.conflict, message: "Taken.").linking(to: ErrorPageLink("Back to the list", url: "/list?page=2&sort=name"))
        }
        let sessions = SessionConfiguration(secret: Data(repeating: 7, count: 32))
        try await app.build(middleware: [SessionMiddleware(sessions), ErrorPageMiddleware()]).test { client in
            let page = try await client.send("/linked-conflict")
            #expect(page.status == 409)
            #expect(page.text.contains("Taken."))
            #expect(page.text.contains(#"<a href="/list?page=2&amp;sort=name">Back to the list</a>"#))
            #expect(page.text.contains(#"<a href="/">Go to the home page</a>"#))
            let json = try await client.send("/linked-conflict", headers: ["Accept": "application/json"])
            #expect(json.status == 409)
            #expect(json.text.contains("Taken."))
        }
    }
}
