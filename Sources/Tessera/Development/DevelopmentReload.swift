public import Foundation

/// `make dev`'s half inside the app: every HTML page carries a small script that reloads it once
/// another build of the app answers, and that shows a failed build's errors over the page until
/// the next build succeeds.
///
/// The watcher (`scripts/dev.py`) rebuilds and restarts the app on every saved change. It names
/// each build (`TESSERA_DEV_BUILD`), and writes a failed build's compiler messages to a file
/// (`TESSERA_DEV_STATUS`) while the last good build goes on serving. A template whose markup
/// alone changed is not rebuilt: the watcher saves its static text (`TESSERA_DEV_MARKUP`), which
/// a debug build's views read, and counts the saves. The page follows
/// ``eventsPath``, an event stream that says which build answers, how many saves of markup it has
/// seen, and what that file holds: a page rendered by another build, or before the last save, reloads itself, keeping its scroll position and what was typed into
/// its forms. Phoenix's live reload and Vite's client work the same way: the page follows the
/// server, not the files, so it reloads only once the new server can answer it.
///
/// Only for development: without these variables an app registers none of it, and its pages
/// carry no script.
public struct DevelopmentReload: FeatureModule {
    /// The event stream a page follows.
    public static let eventsPath = "/_tessera/dev/events"
    /// The script each page loads from this origin (the security headers allow no inline script).
    public static let scriptPath = "/_tessera/dev/reload.js"

    /// The running build's name; a page rendered by another one reloads.
    public let build: String
    /// Where the watcher writes a failed build's messages; no file while the last build succeeded.
    public let statusFile: URL
    /// Where the watcher saves a template's markup when nothing else in it changed, so the page
    /// shows it without a rebuild (`SavedMarkupFolder`, in debug builds); `nil`: never.
    public let markupFolder: URL?
    /// The folder's runs, kept once read: one for the pages' step and the event stream.
    private let savedMarkup: SavedMarkupFolder

    /// Development reload for the build named `build`, with failures read from `statusFile` and
    /// saved markup from `markupFolder`.
    public init(build: String, statusFile: URL, markupFolder: URL? = nil) {
        self.build = build
        self.statusFile = statusFile
        self.markupFolder = markupFolder
        self.savedMarkup = SavedMarkupFolder(folder: markupFolder)
    }

    /// Reload from `TESSERA_DEV_BUILD` and `TESSERA_DEV_STATUS`, which only the watcher sets;
    /// `nil` without them, as in production.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> DevelopmentReload? {
        guard let build = environment["TESSERA_DEV_BUILD"], !build.isEmpty,
            let status = environment["TESSERA_DEV_STATUS"], !status.isEmpty
        else { return nil }
        let markup = environment["TESSERA_DEV_MARKUP"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        return DevelopmentReload(build: build, statusFile: URL(fileURLWithPath: status), markupFolder: markup)
    }

    /// The step that adds the script to every HTML page. It goes inside compression (after
    /// ``CompressionMiddleware`` in the chain), which must see the page with its script.
    public var middleware: some Middleware { DevelopmentReloadMiddleware(build: build, markup: savedMarkup) }

    /// The script and the event stream. With a markup folder, no page is answered from a copy
    /// (304s, shared regions' HTML): saved markup changes what pages show without a topic.
    public func register(in app: inout ApplicationBuilder) {
        if markupFolder != nil {
            app.pageValidators = .pages(maxBytes: 0)
            app.regionCache = .regions(maxBytes: 0)
        }
        let stream = DevelopmentEvents(
            build: build, statusFile: statusFile, markup: savedMarkup, server: app.serverState)
        app.routes.action(Route<NoParameters>("tessera.dev.script", .get, RoutePattern(Self.scriptPath))) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-store"],
                body: .bytes(DevelopmentReloadScript.bytes))
        }
        app.routes.action(Route<NoParameters>("tessera.dev.events", .get, RoutePattern(Self.eventsPath))) { _, context in
            try await stream.respond(in: context)
        }
    }
}
