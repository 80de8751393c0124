import HTTPTypes
import TesseraHTTP

/// The regions a page already shows, by version, as its navigation script names them in
/// `Tessera-Regions` when it asks for the next page: a region whose version is among them is
/// sent as an empty element marked `data-region-same`, and the page keeps its own. A version is a
/// hash of the fragment's bytes, so equal versions are equal fragments, whatever the page.
///
/// What a client sends is checked, never trusted: a malformed version is left out, and past
/// ``limit`` the rest are ignored, so the worst a client can do is be sent whole regions.
struct RegionsHeld: Sendable {
    /// The request header that names them.
    static let header = HTTPField.Name("Tessera-Regions")!
    /// The most versions read from one request; a page shows a few dozen regions at most.
    static let limit = 64

    private let versions: Set<Substring>

    /// The versions `request` names; `nil` for a request without the header (a browser's own
    /// navigation, a scraper), which gets every region whole.
    init?(_ request: Request) {
        guard let field = request.headers[Self.header] else { return nil }
        let named = field.split(separator: " ", omittingEmptySubsequences: true).prefix(Self.limit)
        versions = Set(named.filter(RegionVersion.isWellFormed))
    }

    /// Whether the page shows the fragment of `version` already.
    func contains(_ version: String) -> Bool {
        versions.contains(Substring(version))
    }
}
