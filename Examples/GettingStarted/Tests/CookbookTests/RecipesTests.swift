import Tessera
import TesseraTesting
import Testing

@testable import Cookbook

@Suite struct RecipesTests {
    static let filled = "name=Sample+name&minutes=42&steps=First+line%0D%0ASecond+line&vegetarian=on"

    @Test func aRecipeIsCreatedShownListedAndEdited() async throws {
        try await TestApp.make().test(.inProcess) { client in
            let created = try await client.submit(from: "/recipes/new", to: "/recipes", form: Self.filled)
            #expect(created.status == 303)
            let path = try #require(created.header("location"))
            let page = try await client.send(path)
            #expect(page.status == 200)
            #expect(page.text.contains("Sample name"), "name")
            #expect(page.text.contains("42"), "minutes")
            #expect(page.text.contains("First line"), "steps")
            #expect(page.text.contains("Yes"), "vegetarian")
            let list = try await client.send("/recipes")
            #expect(list.text.contains("<a href=\"" + path + "\">"))
            let saved = try await client.submit(from: path + "/edit", to: path, form: "name=Changed+name&minutes=43&steps=Changed+text")
            #expect(saved.status == 303)
            #expect(saved.header("location") == path)
            let changed = try await client.send(path)
            #expect(changed.text.contains("Changed name"), "name")
            #expect(changed.text.contains("43"), "minutes")
            #expect(changed.text.contains("Changed text"), "steps")
            #expect(changed.text.contains("No"), "vegetarian")
        }
    }

    @Test func aFormWithMistakesComesBackWithItsMessagesAndSavesNothing() async throws {
        try await TestApp.make().test(.inProcess) { client in
            let reply = try await client.submit(from: "/recipes/new", to: "/recipes", form: "")
            #expect(reply.status == 422)
            #expect(reply.text.contains(#"aria-invalid="true""#))
            #expect(reply.text.contains(#"class="field-error""#))
            #expect(try await client.send("/recipes").text.contains("No recipes yet."))
        }
    }

    @Test func anUnknownRecipeIsANotFoundPage() async throws {
        try await TestApp.make().test(.inProcess) { client in
            #expect(try await client.send("/recipes/999").status == 404)
            #expect(try await client.send("/recipes/999/edit").status == 404)
            #expect(try await client.send("/recipes/first").status == 404)
            let update = try await client.submit(from: "/recipes/new", to: "/recipes/999", form: Self.filled)
            #expect(update.status == 404)
        }
    }
}
