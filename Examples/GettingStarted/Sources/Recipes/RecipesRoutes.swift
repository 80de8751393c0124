import Tessera

/// The recipes' routes, for links from anywhere.
public enum RecipesRoutes {
    public static let list = Route<NoParameters>("recipes.list", .get, "/")
    public static let recipe = Route<Int>("recipes.recipe", .get, "/recipes/{id}")
}
