import ArgumentParser

/// `storefront`: the shop, composed from the framework and its feature modules. It serves by
/// default (`storefront serve`); `storefront migrate` brings the schema up to date before a
/// rolling deploy; `storefront backup PATH` copies the live database;
/// `storefront seed --products N` makes a data directory with a large catalog.
@main
struct StorefrontCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storefront",
        abstract: "The Tessera storefront: a server-rendered shop on libmicrohttpd.",
        subcommands: [ServeCommand.self, MigrateCommand.self, BackupCommand.self, SeedCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
