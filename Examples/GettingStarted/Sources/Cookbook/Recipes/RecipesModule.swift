public import Tessera

/// The recipes' one entry point: their pages and forms, on their service.
public struct RecipesModule: FeatureModule {
    let recipes: RecipeService

    public init(recipes: RecipeService) {
        self.recipes = recipes
    }

    public func register(in app: inout ApplicationBuilder) {
        let recipes = self.recipes
        app.routes.page(RecipesRoutes.list) { _, _ in RecipeListPageController(recipes: recipes) }
        app.routes.page(RecipesRoutes.new) { _, _ in RecipeFormPageController(recipes: recipes, editing: nil, form: nil) }
        app.routes.page(RecipesRoutes.show) { id, _ in RecipePageController(recipes: recipes, id: id) }
        app.routes.page(RecipesRoutes.edit) { id, _ in RecipeFormPageController(recipes: recipes, editing: id, form: nil) }
        RecipeActions(recipes: recipes).register(in: &app.routes)
    }
}
