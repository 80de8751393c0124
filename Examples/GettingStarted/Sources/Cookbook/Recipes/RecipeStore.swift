public import GRDB
public import Tessera
public import TesseraSQLite

/// Where recipes are kept; the service sees only this protocol.
public protocol RecipeStore: Sendable {
    func all(within budget: DatabaseBudget) async throws -> [Recipe]
    func recipe(id: Int, within budget: DatabaseBudget) async throws -> Recipe?
    /// Adds `recipe` (its `id` is not used) and returns it with the id it got.
    func insert(_ recipe: Recipe, within budget: DatabaseBudget) async throws -> Recipe
    /// Replaces the recipe with `recipe.id`; `false` when there is none.
    func update(_ recipe: Recipe, within budget: DatabaseBudget) async throws -> Bool
}

/// Recipes in the app's SQLite database, through GRDB: each call within the
/// request's database budget.
public struct SQLiteRecipeStore: RecipeStore {
    let database: any SQLiteDatabase

    /// Recipes in `database`, after their migrations ran.
    public init(database: any SQLiteDatabase) {
        self.database = database
    }

    /// The `recipes` table, in the order its changes were added; the app's route table runs them.
    public static func registerMigrations(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("recipes.v1") { db in
            try db.create(table: "recipes") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("name", .text).notNull()
                table.column("minutes", .integer).notNull()
                table.column("steps", .text).notNull()
                table.column("vegetarian", .boolean).notNull()
            }
        }
    }

    public func all(within budget: DatabaseBudget) async throws -> [Recipe] {
        try await database.read(within: budget) { db in try Recipe.fetchAll(db, sql: "SELECT * FROM \"recipes\" ORDER BY id") }
    }

    public func recipe(id: Int, within budget: DatabaseBudget) async throws -> Recipe? {
        try await database.read(within: budget) { db in try Recipe.fetchOne(db, sql: "SELECT * FROM \"recipes\" WHERE id = ?", arguments: [id]) }
    }

    public func insert(_ recipe: Recipe, within budget: DatabaseBudget) async throws -> Recipe {
        try await database.write(within: budget) { db in
            try db.execute(
                sql: "INSERT INTO \"recipes\" (\"name\", \"minutes\", \"steps\", \"vegetarian\") VALUES (?, ?, ?, ?)",
                arguments: [recipe.name, recipe.minutes, recipe.steps, recipe.vegetarian])
            var inserted = recipe
            inserted.id = Int(db.lastInsertedRowID)
            return inserted
        }
    }

    public func update(_ recipe: Recipe, within budget: DatabaseBudget) async throws -> Bool {
        try await database.write(within: budget) { db in
            try db.execute(
                sql: "UPDATE \"recipes\" SET \"name\" = ?, \"minutes\" = ?, \"steps\" = ?, \"vegetarian\" = ? WHERE id = ?",
                arguments: [recipe.name, recipe.minutes, recipe.steps, recipe.vegetarian, recipe.id])
            return db.changesCount == 1
        }
    }
}
