import Tessera
import TesseraViews

/// `/recipes`: every recipe, with a link to each.
struct RecipeListPageController: PageController {
    let recipes: RecipeService

    func load(_ context: RequestContext) async throws -> RecipeList {
        RecipeList(try await recipes.all(within: context.databaseBudget))
    }

    func render(_ list: RecipeList, in context: RequestContext) -> Page {
        Page(title: "Recipes", body: context.render(RecipeListView.self, list))
    }
}
