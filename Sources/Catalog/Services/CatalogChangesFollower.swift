import ServiceLifecycle

/// Runs ``CatalogService/followChanges()`` beside the server, until it shuts down, so that
/// what the store keeps in memory (the categories and their counts) follows every instance's
/// changes.
struct CatalogChangesFollower: Service {
    let catalog: CatalogService

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await catalog.followChanges()
        }
    }
}
