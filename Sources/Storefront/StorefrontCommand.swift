import ArgumentParser

/// `storefront`: the shop, composed from the framework and its feature modules. It serves by
/// default (`storefront serve`); `storefront backup PATH` copies the live database.
@main
struct StorefrontCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storefront",
        abstract: "The Tessera storefront: a server-rendered shop on libmicrohttpd.",
        subcommands: [ServeCommand.self, BackupCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
