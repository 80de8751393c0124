public import Tessera

/// The recipes' rules: what the pages and forms may do with them.
public struct RecipeService: Sendable {
    let store: any RecipeStore

    public init(store: any RecipeStore) {
        self.store = store
    }

    /// Every recipe, oldest first.
    func all(within budget: DatabaseBudget) async throws -> [Recipe] {
        try await store.all(within: budget)
    }

    /// The recipe `id`, or a 404 page.
    func recipe(id: Int, within budget: DatabaseBudget) async throws -> Recipe {
        guard let recipe = try await store.recipe(id: id, within: budget) else { throw Self.notFound(id) }
        return recipe
    }

    /// A new recipe with the form's values.
    func create(_ form: RecipeForm, within budget: DatabaseBudget) async throws -> Recipe {
        try await store.insert(form.recipe(id: 0), within: budget)
    }

    /// The recipe `id` with the form's values, or a 404 page.
    func update(id: Int, with form: RecipeForm, within budget: DatabaseBudget) async throws -> Recipe {
        let recipe = form.recipe(id: id)
        guard try await store.update(recipe, within: budget) else { throw Self.notFound(id) }
        return recipe
    }

    static func notFound(_ id: Int) -> HTTPError {
        HTTPError(.notFound, message: "There is no recipe \(id).")
    }
}
