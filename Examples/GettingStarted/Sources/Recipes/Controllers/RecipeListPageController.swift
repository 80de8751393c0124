import Tessera
import TesseraViews

/// `/`: every recipe, or those whose name holds what was searched for (`?q=`).
struct RecipeListPageController: PageController {
    let book: RecipeBook

    func load(_ context: RequestContext) async throws -> RecipeSearch {
        let text = context.request.query["q"] ?? ""
        return RecipeSearch(text: text, recipes: try await book.recipes(named: text))
    }

    func render(_ search: RecipeSearch, in context: RequestContext) -> Page {
        Page(title: "Recipes", body: context.render(RecipeListView.self, search))
    }
}
