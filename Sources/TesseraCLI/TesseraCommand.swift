import ArgumentParser

/// `tessera`: makes an app, and features inside it, as `rails new` and `rails generate`,
/// `mix phx.new` and `mix phx.gen.html` do. Run from this repository: `swift run tessera …`.
@main
struct TesseraCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "Makes Tessera apps, and features inside them.",
        subcommands: [NewCommand.self, GenerateCommand.self]
    )
}

/// `tessera generate …`: a feature in the app of the current folder.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Adds a feature to an existing app.",
        subcommands: [ResourceCommand.self]
    )
}
