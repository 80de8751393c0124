/// A recipe, as the book keeps it.
public struct Recipe: Sendable {
    public let id: Int
    public let name: String
    public let minutes: Int
    public let steps: [String]
}

/// The list page's model: what was searched for, and the recipes found.
public struct RecipeSearch: Sendable {
    public let text: String
    public let recipes: [Recipe]
}
