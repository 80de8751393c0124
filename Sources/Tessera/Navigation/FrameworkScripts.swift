import TesseraHTTP
public import TesseraViews

/// Scripts that are the framework's own, served by every app at a fingerprinted URL: a layout
/// links one with the `asset` filter, as it links its own files,
/// `<script src="{{ "/_tessera/navigate.js" | asset }}" defer></script>`.
///
/// They are compiled into the binary (`.embedInCode` in `Package.swift`), not read from the
/// app's public folder: an app made by `tessera new` has them without copying a file, and a
/// Tessera update brings their new version, under a new URL, to every app at once.
public enum FrameworkScripts {
    /// The navigation script (`Sources/Tessera/Navigation/navigate.js`): same-origin links and
    /// forms fetch their page and morph the document into it, sending the versions of the
    /// regions the page shows in `Tessera-Regions`. Without it, or without JavaScript, every link
    /// and form works as it is.
    public static let navigationPath = "/_tessera/navigate.js"

    /// The scripts by their plain path, each with its bytes and fingerprinted URL.
    static let all: [String: FrameworkScript] = [
        navigationPath: FrameworkScript(path: navigationPath, bytes: PackageResources.navigate_js)
    ]

    /// What the `asset` filter links each one to.
    public static var assetURLs: AssetURLs {
        AssetURLs(all.mapValues(\.fingerprintedURL))
    }

    /// Their routes: each at its fingerprinted URL, kept by browsers for a year (a new version
    /// has a new URL), and at its plain path without that, for a page that links it by hand.
    static func register(in routes: inout RouterBuilder) {
        for script in all.values {
            for (url, cacheControl) in [(script.fingerprintedURL, "public, max-age=31536000, immutable"), (script.path, "no-cache")] {
                let response = Response(
                    status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: cacheControl],
                    body: .bytes(script.bytes))
                routes.action(Route<NoParameters>("tessera.script\(url)", .get, RoutePattern(url))) { _, _ in response }
            }
        }
    }
}

/// One of the framework's scripts.
struct FrameworkScript: Sendable {
    let path: String
    let bytes: [UInt8]
    /// `/_tessera/navigate.3f2a1c9e07.js`, named as the public folder's files are.
    let fingerprintedURL: String

    init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        fingerprintedURL = Fingerprint.add(Fingerprint.of(bytes), to: path)
    }
}
