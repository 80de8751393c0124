import TesseraTesting
import TesseraViews
import Testing

@testable import Tessera

/// The framework's own scripts: every app serves them, a layout links them with the `asset`
/// filter, and the fingerprinted URL may be kept for a year.
@Suite struct FrameworkScriptsTests {
    @Test func theNavigationScriptIsServedAtItsFingerprintedURL() async throws {
        let builder = ApplicationBuilder()
        let url = builder.assets.url(for: FrameworkScripts.navigationPath)
        let app = try builder.build()
        #expect(url.hasPrefix("/_tessera/navigate.") && url.hasSuffix(".js") && url != FrameworkScripts.navigationPath)
        #expect(Fingerprint.remove(from: url) == FrameworkScripts.navigationPath, "named as the public folder's files are")

        try await app.test { client in
            let kept = try await client.send(url)
            #expect(kept.status == 200)
            #expect(kept.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(kept.header("Cache-Control") == "public, max-age=31536000, immutable")
            #expect(kept.text.contains("Tessera-Regions"), "the script itself, compiled in")

            let plain = try await client.send(FrameworkScripts.navigationPath)
            #expect(plain.status == 200)
            #expect(plain.header("Cache-Control") == "no-cache", "a plain path may change with the next Tessera")
            #expect(plain.text == kept.text)
        }
    }

    @Test func anAppsOwnFilesAndTheFrameworksScriptsAreLinkedTogether() throws {
        let own = AssetURLs(["/css/site.css": "/css/site.0123456789.css"])
        let merged = own.merging(FrameworkScripts.assetURLs)
        #expect(merged.url(for: "/css/site.css") == "/css/site.0123456789.css")
        #expect(merged.url(for: FrameworkScripts.navigationPath) == FrameworkScripts.assetURLs.url(for: FrameworkScripts.navigationPath))
        #expect(merged.url(for: "/unknown.js") == "/unknown.js")
    }
}
