/// The URLs templates link static files by: each file's path with its content hash in the
/// name (`/css/site.css` → `/css/site.3f2a1c9e07.css`), so that a browser may keep it for a
/// year and an edited file still reaches everyone at once, under its new name.
///
/// Templates use it through the `asset` filter, `{{ "/css/site.css" | asset }}`, which reads the
/// map the rendering was given (``HTMLOutput/assets``), like the CSRF token. A path the map does
/// not know, or a rendering without a map (a test, a benchmark), links the plain path.
public struct AssetURLs: Sendable {
    private let fingerprinted: [String: String]

    /// No fingerprints: every path links as it is.
    public static let none = AssetURLs([:])

    /// A map from each file's path to its fingerprinted URL.
    public init(_ fingerprinted: [String: String]) {
        self.fingerprinted = fingerprinted
    }

    /// These and `other`'s together; where both know a path, `other`'s URL.
    public func merging(_ other: AssetURLs) -> AssetURLs {
        AssetURLs(fingerprinted.merging(other.fingerprinted) { _, theirs in theirs })
    }

    /// The fingerprinted URL of `path`, or `path` itself when it has none.
    public func url(for path: String) -> String {
        fingerprinted[path] ?? path
    }
}
