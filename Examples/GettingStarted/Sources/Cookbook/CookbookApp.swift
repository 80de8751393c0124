public import GRDB
public import Tessera
public import TesseraSQLite

/// The app's route table and its database: every feature module is registered here,
/// and no module knows another. `tessera generate resource` adds its lines above the
/// `tessera:` comments.
public enum CookbookApp {
    /// Every module's tables, in the order they were added; the server runs them at start.
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        SQLiteRecipeStore.registerMigrations(in: &migrator)
        // tessera:migrations
        return migrator
    }

    /// Registers every feature module, with its services on `database`.
    public static func register(in app: inout ApplicationBuilder, database: any SQLiteDatabase) {
        app.register(HomeModule(greetings: GreetingService()))
        app.register(RecipesModule(recipes: RecipeService(store: SQLiteRecipeStore(database: database))))
        // tessera:modules
    }
}
