import TesseraViews

/// The fragments of shared regions (``SharedRegion``), kept per language until a
/// topic they show is published, they grow old, or room is needed: a ``TopicCache`` of HTML and
/// its version,
/// owned by the app (``ApplicationBuilder/regionCache``) and told of every publication by its
/// ``LiveRegions``, here and, through the bus, on the other instances.
public typealias RegionCache = TopicCache<String, RegionFragment>

extension TopicCache where Key == String, Value == RegionFragment {
    /// `maxBytes` of HTML (8 MB, a thousand product regions in two languages), one fragment at
    /// most an eighth of it, each kept a minute at most: the bound on how stale a change that
    /// was never published leaves a page. Zero keeps nothing.
    public static func regions(maxBytes: Int = 8 << 20, maxAge: Duration = .seconds(60)) -> RegionCache {
        RegionCache(limits: Limits(maxCost: maxBytes, maxEntryCost: max(0, maxBytes) / 8, maxAge: maxAge)) { key, fragment in
            fragment.html.bytes.count + key.utf8.count + 64
        }
    }
}
