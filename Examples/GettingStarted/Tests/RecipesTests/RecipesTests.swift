import Foundation
import Recipes
import Tessera
import TesseraTesting
import Testing

@Suite struct RecipesTests {
    static func app() throws -> Application {
        var app = ApplicationBuilder()
        app.register(RecipesModule(book: .sample))
        let sessions = SessionConfiguration(secret: Data(repeating: 7, count: 32))
        return try app.build(middleware: [SessionMiddleware(sessions), ErrorPageMiddleware()])
    }

    @Test func listsEveryRecipe() async throws {
        let app = try Self.app()
        try await app.test(.inProcess) { client in
            let page = try await client.send("/")
            #expect(page.status == 200)
            #expect(page.text.contains(#"<a href="/recipes/1">Pancakes</a>"#))
        }
    }

    @Test func anUnknownRecipeIsANotFoundPage() async throws {
        try await Self.app().test(.inProcess) { client in
            let known = try await client.send("/recipes/1")
            let unknown = try await client.send("/recipes/99")
            let notAnID = try await client.send("/recipes/pancakes")
            #expect(known.status == 200)
            #expect(unknown.status == 404)
            #expect(unknown.text.contains("There is no recipe 99."))
            #expect(notAnID.status == 404)
        }
    }

    @Test func searchesByName() async throws {
        try await Self.app().test(.inProcess) { client in
            let found = try await client.send("/?q=FLAT")
            #expect(found.text.contains(#"<a href="/recipes/2">Flatbread</a>"#))
            #expect(!found.text.contains("Pancakes"))
            #expect(found.text.contains(#"value="FLAT""#), "the search box keeps what was typed")
            let markup = try await client.send("/?q=%3Cb%3E")
            #expect(markup.text.contains(#"value="&lt;b&gt;""#), "escaped, as every value is")
        }
    }
}
