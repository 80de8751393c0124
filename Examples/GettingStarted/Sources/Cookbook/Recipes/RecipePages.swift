import Tessera

/// What the list shows: a link per recipe.
struct RecipeList: Sendable {
    struct Row: Sendable {
        var path: String
        var label: String
    }

    var rows: [Row]
    var isEmpty: Bool { rows.isEmpty }

    init(_ recipes: [Recipe]) {
        rows = recipes.map { Row(path: RecipesRoutes.show.path($0.id), label: RecipePage.title(of: $0)) }
    }
}

/// What a recipe's page shows: the recipe, its title and the way to its form.
struct RecipePage: Sendable {
    var recipe: Recipe
    var title: String
    var editPath: String

    init(_ recipe: Recipe) {
        self.recipe = recipe
        title = Self.title(of: recipe)
        editPath = RecipesRoutes.edit.path(recipe.id)
    }

    static func title(of recipe: Recipe) -> String {
        recipe.name
    }
}

/// What the form shows: where it goes, each field's value as typed and its message.
struct RecipeFormPage: Sendable {
    var heading: String
    var action: String
    var button: String
    var back: String
    var name: String
    var nameError: String?
    var minutes: String
    var minutesError: String?
    var steps: String
    var stepsError: String?
    var vegetarian: Bool
    var vegetarianError: String?

    /// The form for a new recipe (`editing` nil) or for the recipe `editing`, with `state`'s values and messages.
    init(editing id: Int?, state: FormState) {
        heading = id == nil ? "New recipe" : "Edit recipe"
        action = id.map { RecipesRoutes.update.path($0) } ?? RecipesRoutes.create.path
        button = id == nil ? "Create recipe" : "Save recipe"
        back = id.map { RecipesRoutes.show.path($0) } ?? RecipesRoutes.list.path
        name = state.value("name")
        nameError = state.error("name")
        minutes = state.value("minutes")
        minutesError = state.error("minutes")
        steps = state.value("steps")
        stepsError = state.error("steps")
        vegetarian = state.value("vegetarian") == "on"
        vegetarianError = state.error("vegetarian")
    }

    /// The form filled from `recipe`.
    init(editing recipe: Recipe) {
        self.init(
            editing: recipe.id,
            state: FormState(values: [
                "name": recipe.name,
                "minutes": String(recipe.minutes),
                "steps": recipe.steps,
                "vegetarian": recipe.vegetarian ? "on" : "",
            ]))
    }
}
