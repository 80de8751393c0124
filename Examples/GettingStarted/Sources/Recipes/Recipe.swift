/// A recipe, as the book keeps it.
public struct Recipe: Sendable {
    public let id: Int
    public let name: String
    public let minutes: Int
    public let steps: [String]
}
