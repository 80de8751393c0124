import Tessera
import TesseraViews

/// The recipe forms: each ends in a redirect to the recipe (Post/Redirect/Get), or
/// shows the form again with its messages (422).
struct RecipeActions {
    let recipes: RecipeService

    func register(in routes: inout RouterBuilder) {
        let recipes = self.recipes
        routes.action(RecipesRoutes.create) { _, context in
            switch try context.decodeForm(RecipeForm.self) {
            case .invalid(let state):
                return try await context.render(RecipeFormPageController(recipes: recipes, editing: nil, form: state))
            case .valid(let form):
                let recipe = try await recipes.create(form, within: context.databaseBudget)
                return context.redirect(to: RecipesRoutes.show.path(recipe.id), flash: "Recipe created.")
            }
        }
        routes.action(RecipesRoutes.update) { id, context in
            switch try context.decodeForm(RecipeForm.self) {
            case .invalid(let state):
                return try await context.render(RecipeFormPageController(recipes: recipes, editing: id, form: state))
            case .valid(let form):
                let recipe = try await recipes.update(id: id, with: form, within: context.databaseBudget)
                return context.redirect(to: RecipesRoutes.show.path(recipe.id), flash: "Recipe saved.")
            }
        }
    }
}
