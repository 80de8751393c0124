/// How a shared region's fragment is kept: what a ``SharedRegionController`` answers in
/// ``SharedRegionController/caching``.
///
/// A fragment that is the same for every visitor who reads the page in one language, such as a
/// product's description or its related products, need not be rendered (nor its model read)
/// for each of them. The app's ``RegionCache`` keeps it per language under the key until a
/// service publishes one of the topics (on this instance or, through the ``TopicBus``, on
/// another), as ASP.NET Core's output cache evicts by tag and Rails expires a fragment with its
/// record. What a shared region may read is held by its ``SharedRegionContext``.
public struct RegionCaching: Sendable {
    /// The key, unique in the app, such as `catalog.detail.3`.
    let key: String
    /// The topics whose change ends the kept fragment.
    let topics: [Topic]

    /// The same fragment for every visitor in a language, kept under `key` until one of `topics`
    /// is published. `topics` must name everything the fragment shows that can change, as a
    /// live region's ``SharedRegionController/topics`` do; ``TopicFamily/any`` stands for every
    /// key of a family (what a list of products depends on).
    public static func shared(_ key: String, until topics: [Topic]) -> RegionCaching {
        RegionCaching(key: key, topics: topics)
    }
}
