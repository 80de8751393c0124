import Tessera

/// The recipes' one entry point: their pages.
public struct RecipesModule: FeatureModule {
    let book: RecipeBook

    public init(book: RecipeBook) {
        self.book = book
    }

    public func register(in app: inout ApplicationBuilder) {
        let book = self.book
        app.routes.page(RecipesRoutes.list) { _, _ in RecipeListPageController(book: book) }
        app.routes.page(RecipesRoutes.recipe) { id, _ in RecipePageController(book: book, id: id) }
    }
}
