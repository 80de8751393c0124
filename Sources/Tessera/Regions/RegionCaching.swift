/// Whether a region's fragment may be kept and handed to other visitors: what a region
/// controller answers in ``RegionController/caching``.
///
/// A fragment that is the same for every visitor who reads the page in one language, such as a
/// product's description or its related products, need not be rendered (nor its model read)
/// for each of them. Such a region says so with ``shared(_:until:)``: the app's
/// ``RegionCache`` keeps the fragment per language under the key until a service publishes one
/// of the topics (on this instance or, through the ``TopicBus``, on another), as ASP.NET Core's
/// output cache evicts by tag and Rails expires a fragment with its record.
///
/// A shared region is rendered without the visitor's session (so no CSRF token: a form belongs
/// in a region of its own) and without the values of the visitor's middleware (no signed-in
/// shopper). The request itself is still there, for its language and route: a shared region
/// must read nothing else of it (no cookie, header or other query value), since what it shows
/// is shown to every visitor in that language.
public struct RegionCaching: Sendable {
    /// The key, unique in the app, such as `catalog.detail.3`; `nil` when nothing is kept.
    let key: String?
    /// The topics whose change ends the kept fragment.
    let topics: [Topic]

    /// Rendered for each request: the default, and what a region that shows the visitor needs.
    public static let none = RegionCaching(key: nil, topics: [])

    /// The same fragment for every visitor in a language, kept under `key` until one of `topics`
    /// is published. `topics` must name everything the fragment shows that can change, as a
    /// live region's ``RegionController/topics`` do; ``TopicFamily/any`` stands for every key
    /// of a family (what a list of products depends on).
    public static func shared(_ key: String, until topics: [Topic]) -> RegionCaching {
        RegionCaching(key: key, topics: topics)
    }
}
