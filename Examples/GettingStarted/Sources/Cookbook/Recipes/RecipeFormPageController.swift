import Tessera
import TesseraViews

/// `/recipes/new` and `/recipes/{id}/edit`: the form, empty, filled from the recipe,
/// or sent back with its messages (422).
struct RecipeFormPageController: PageController {
    let recipes: RecipeService
    /// The recipe being edited; `nil` for a new one.
    let editing: Int?
    /// A form sent back with its messages; `nil` for a form shown first.
    let form: FormState?

    func load(_ context: RequestContext) async throws -> RecipeFormPage {
        if let form { return RecipeFormPage(editing: editing, state: form) }
        guard let editing else { return RecipeFormPage(editing: nil, state: FormState()) }
        return RecipeFormPage(editing: try await recipes.recipe(id: editing, within: context.databaseBudget))
    }

    func render(_ page: RecipeFormPage, in context: RequestContext) -> Page {
        Page(
            title: page.heading, body: context.render(RecipeFormView.self, page),
            status: form?.isValid == false ? .unprocessableContent : .ok)
    }
}
