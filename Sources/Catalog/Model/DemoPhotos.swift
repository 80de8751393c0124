/// When the demo shop's photos are drawn: they are gradients libvips draws, nothing downloaded.
public enum DemoPhotos: String, Sendable, CaseIterable {
    /// Every variant drawn and stored when the demo catalog is seeded (a few seconds, once), so
    /// that no page waits for libvips: what `make run` and a deployment do.
    case drawnAtSeed = "seed"
    /// Only listed at seed; each variant drawn the first time a page asks for it. For test suites
    /// that start many storefronts, most of which never show a photo.
    case drawnWhenAsked = "on-request"
}
