/// What the home page shows.
struct HomePage: Sendable {
    var title: String
}

/// What the greeting region shows.
struct Greeting: Sendable, Equatable {
    var text: String
}
