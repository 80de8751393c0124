public import Tessera

/// The recipes' routes, for links from anywhere.
public enum RecipesRoutes {
    /// `/recipes`: every recipe.
    public static let list = Route<NoParameters>("recipes.list", .get, "/recipes")
    /// `/recipes/new`: the form for a new recipe.
    public static let new = Route<NoParameters>("recipes.new", .get, "/recipes/new")
    /// Creates a recipe from the form, or shows it again with its messages (422).
    public static let create = Route<NoParameters>("recipes.create", .post, "/recipes")
    /// `/recipes/{id}`: one recipe, or a 404.
    public static let show = Route<Int>("recipes.show", .get, "/recipes/{id}")
    /// `/recipes/{id}/edit`: the form, filled from the recipe.
    public static let edit = Route<Int>("recipes.edit", .get, "/recipes/{id}/edit")
    /// Saves the form to the recipe, or shows it again with its messages (422).
    public static let update = Route<Int>("recipes.update", .post, "/recipes/{id}")
}
