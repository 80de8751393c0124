import GRDB

/// A recipe, as the `recipes` table keeps it.
public struct Recipe: Sendable, Equatable, Codable, FetchableRecord {
    public var id: Int
    public var name: String
    public var minutes: Int
    public var steps: String
    public var vegetarian: Bool
}
