import Tessera
import TesseraViews

/// `/`: every recipe.
struct RecipeListPageController: PageController {
    let book: RecipeBook

    func load(_ context: RequestContext) async throws -> [Recipe] {
        try await book.all()
    }

    func render(_ recipes: [Recipe], in context: RequestContext) -> Page {
        Page(title: "Recipes", body: context.render(RecipeListView.self, recipes))
    }
}
