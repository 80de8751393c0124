import Foundation
import Tessera

/// The recipes' service: where they are loaded and where the rules live.
public struct RecipeBook: Sendable {
    let recipes: [Recipe]

    public init(recipes: [Recipe]) {
        self.recipes = recipes
    }

    public static let sample = RecipeBook(recipes: [
        Recipe(id: 1, name: "Pancakes", minutes: 20, steps: ["Whisk", "Rest", "Fry"]),
        Recipe(id: 2, name: "Flatbread", minutes: 30, steps: ["Knead", "Roll", "Bake"]),
    ])

    /// Every recipe whose name holds `text`, whatever its case; every recipe for no text.
    func recipes(named text: String) async throws -> [Recipe] {
        let text = text.trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? recipes : recipes.filter { $0.name.localizedStandardContains(text) }
    }

    func recipe(id: Int) async throws -> Recipe {
        guard let recipe = recipes.first(where: { $0.id == id }) else {
            throw HTTPError(.notFound, message: "There is no recipe \(id).")
        }
        return recipe
    }
}
