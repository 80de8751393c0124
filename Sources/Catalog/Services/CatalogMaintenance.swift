import ServiceLifecycle

/// Runs ``CatalogService/maintain()`` beside the server until it shuts down, such as SQLite's
/// hourly reordering of search by sales.
struct CatalogMaintenance: Service {
    let catalog: CatalogService

    func run() async throws {
        await cancelWhenGracefulShutdown { await catalog.maintain() }
        // A store with nothing to do returns at once; a service ends only with the server.
        try? await gracefulShutdown()
    }
}
