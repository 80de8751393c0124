public import Tessera

/// The home page's routes, for links from anywhere.
public enum HomeRoutes {
    /// `/`: the home page.
    public static let home = Route<NoParameters>("home", .get, "/")
    /// The home page's greeting region alone, at its own URL.
    public static let greeting = Route<NoParameters>("home.greeting", .get, "/greeting")
}
