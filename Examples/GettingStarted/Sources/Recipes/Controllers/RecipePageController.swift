import Tessera
import TesseraViews

/// `/recipes/{id}`: one recipe, or a 404.
struct RecipePageController: PageController {
    let book: RecipeBook
    let id: Int

    func load(_ context: RequestContext) async throws -> Recipe {
        try await book.recipe(id: id)
    }

    func render(_ recipe: Recipe, in context: RequestContext) -> Page {
        Page(title: recipe.name, body: context.render(RecipePageView.self, recipe))
    }
}
