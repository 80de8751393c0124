import Tessera
import TesseraViews

/// `/recipes/{id}`: one recipe, or a 404.
struct RecipePageController: PageController {
    let recipes: RecipeService
    let id: Int

    func load(_ context: RequestContext) async throws -> RecipePage {
        RecipePage(try await recipes.recipe(id: id, within: context.databaseBudget))
    }

    func render(_ page: RecipePage, in context: RequestContext) -> Page {
        Page(title: page.title, body: context.render(RecipePageView.self, page))
    }
}
