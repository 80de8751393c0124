import ServiceLifecycle

/// Runs ``CatalogService/followChanges()`` and ``PhotoService/followChanges()`` beside the
/// server, until it shuts down, so that what the catalog keeps in memory (the categories and
/// their counts, the photos pages show) follows every instance's changes.
struct CatalogChangesFollower: Service {
    let catalog: CatalogService
    let photos: PhotoService

    func run() async throws {
        await cancelWhenGracefulShutdown {
            async let categories: Void = catalog.followChanges()
            async let pictures: Void = photos.followChanges()
            _ = await (categories, pictures)
        }
    }
}
