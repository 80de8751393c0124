import Foundation
import TesseraTesting
import TesseraViews
import Testing

@testable import Tessera

/// `make dev`'s half in the app: the reload script in HTML pages only under development reload,
/// and the event stream that names the build and relays a failed build's messages.
@Suite struct DevelopmentReloadTests {
    static func app(reload: DevelopmentReload?) throws -> Application {
        var app = ApplicationBuilder()
        app.routes.action(Route<NoParameters>("page", .get, "/")) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: .bytes(Array("<!DOCTYPE html><html><body><p>hi</p></body></html>".utf8)))
        }
        app.routes.action(Route<NoParameters>("data", .get, "/data.json")) { _, _ in .text("{}") }
        if let reload { app.register(reload) }
        return try app.build(middleware: (reload.map { [$0.middleware] } ?? []) + [ErrorPageMiddleware()])
    }

    static func statusFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tessera-dev-status-\(UUID().uuidString)")
    }

    @Test func pagesCarryTheScriptOnlyUnderDevelopmentReload() async throws {
        let reload = DevelopmentReload(build: "b<1>", statusFile: Self.statusFile())
        try await Self.app(reload: reload).test { client in
            let page = try await client.send("/")
            #expect(
                page.text
                    == #"<!DOCTYPE html><html><body><p>hi</p><script src="/_tessera/dev/reload.js" data-tessera-build="b&lt;1&gt;" data-tessera-markup="0" defer></script></body></html>"#
            )
            #expect(try await client.send("/data.json").text == "{}", "anything but HTML is untouched")
            let missing = try await client.send("/nothing")
            #expect(missing.status == 404)
            #expect(missing.text.contains(#"data-tessera-build="b&lt;1&gt;" data-tessera-markup="0" defer></script></body>"#), "error pages too")
            let script = try await client.send(DevelopmentReload.scriptPath)
            #expect(script.header("content-type") == "text/javascript; charset=utf-8")
            #expect(script.text.contains(#"new EventSource("/_tessera/dev/events")"#))
        }
        try await Self.app(reload: nil).test { client in
            let page = try await client.send("/")
            #expect(!page.text.contains("<script"))
            let script = try await client.send(DevelopmentReload.scriptPath)
            #expect(script.status == 404)
        }
    }

    @Test func onlyTheWatchersVariablesTurnItOn() {
        #expect(DevelopmentReload.fromEnvironment([:]) == nil)
        #expect(DevelopmentReload.fromEnvironment(["TESSERA_DEV_BUILD": "7"]) == nil)
        #expect(DevelopmentReload.fromEnvironment(["TESSERA_DEV_BUILD": "", "TESSERA_DEV_STATUS": "/tmp/x"]) == nil)
        let reload = DevelopmentReload.fromEnvironment(["TESSERA_DEV_BUILD": "7", "TESSERA_DEV_STATUS": "/tmp/x"])
        #expect(reload?.build == "7")
        #expect(reload?.statusFile.path == "/tmp/x")
        #expect(reload?.markupFolder == nil)
        #expect(
            DevelopmentReload.fromEnvironment(["TESSERA_DEV_BUILD": "7", "TESSERA_DEV_STATUS": "/tmp/x", "TESSERA_DEV_MARKUP": "/tmp/m"])?
                .markupFolder?.path == "/tmp/m")
    }

    /// A page says the markup version it was rendered at, and the stream says each new one, so
    /// a page rendered before a save reloads; no page is answered from a copy meanwhile.
    @Test func theStreamSaysEachSaveOfMarkup() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-dev-markup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("3".utf8).write(to: folder.appendingPathComponent("version"))
        var builder = ApplicationBuilder()
        let reload = DevelopmentReload(build: "9", statusFile: Self.statusFile(), markupFolder: folder)
        reload.register(in: &builder)
        #expect(!builder.pageValidators.isOn && !builder.regionCache.isOn, "saved markup changes pages without a topic")
        let app = try Self.app(reload: reload)
        try await app.test { client in
            let page = try await client.send("/")
            #expect(page.text.contains(#"data-tessera-build="9" data-tessera-markup="3" defer>"#))
        }
        let server = try await TestServer.start(responder: app, errorResponder: app)
        let port = server.port
        do {
            try await onThread {
                let stream = try RawHTTPClient(port: port, timeout: 10)
                try stream.send("GET \(DevelopmentReload.eventsPath) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                _ = try stream.readHead()
                var received = ""
                func readUntil(_ text: String) throws {
                    while !received.contains(text) {
                        guard let chunk = try stream.readChunk() else { throw RawHTTPClient.Failure.closed }
                        received += String(decoding: chunk, as: UTF8.self)
                    }
                }
                try readUntil("event: build\ndata: 9\n\nevent: markup\ndata: 3\n\n")
                try Data("4".utf8).write(to: folder.appendingPathComponent("version"))
                try readUntil("event: markup\ndata: 4\n\n")
            }
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }

    @Test func theStreamNamesTheBuildThenRelaysAFailedBuildAndItsFix() async throws {
        let status = Self.statusFile()
        defer { try? FileManager.default.removeItem(at: status) }
        let app = try Self.app(reload: DevelopmentReload(build: "42", statusFile: status))
        let server = try await TestServer.start(responder: app, errorResponder: app)
        let port = server.port
        do {
            try await onThread {
                let stream = try RawHTTPClient(port: port, timeout: 10)
                try stream.send("GET \(DevelopmentReload.eventsPath) HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let head = try stream.readHead()
                #expect(head.status == 200)
                #expect(head.header("content-type") == "text/event-stream; charset=utf-8")
                var received = ""
                func readUntil(_ text: String) throws {
                    while !received.contains(text) {
                        guard let chunk = try stream.readChunk() else { throw RawHTTPClient.Failure.closed }
                        received += String(decoding: chunk, as: UTF8.self)
                    }
                }
                try readUntil("event: build\ndata: 42\n\n")
                try Data("Views/Shop/page.html:3:5: error: no member 'prise'\n  {{ item.prise }}".utf8).write(to: status)
                try readUntil("event: failed\ndata: Views/Shop/page.html:3:5: error: no member 'prise'\ndata:   {{ item.prise }}\n\n")
                try FileManager.default.removeItem(at: status)
                try readUntil("event: fixed\n")
            }
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }

    /// The watcher's file contract, read by the framework: a request reads the version once, and
    /// each template's runs are read once per version, then kept until the next save.
    @Test func savedMarkupIsReadOncePerVersion() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-saved-markup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Views/App"), withIntermediateDirectories: true)
        let runsFile = folder.appendingPathComponent("Views/App/home.html.json")
        func save(_ runs: [String], version: String) throws {
            try JSONEncoder().encode(runs).write(to: runsFile)
            try Data(version.utf8).write(to: folder.appendingPathComponent("version"))
        }
        let saved = SavedMarkupFolder(folder: folder)
        #expect(saved.snapshot().version == "0", "before the first save")
        try save(["<h1>", "</h1>"], version: "1\n")
        let first = saved.snapshot()
        #expect(first.version == "1")
        #expect(first.markup.runs(for: "Views/App/home.html", count: 2) == [Array("<h1>".utf8), Array("</h1>".utf8)])
        #expect(first.markup.runs(for: "Views/App/home.html", count: 3) == nil, "another number of runs: the build's own")
        #expect(first.markup.runs(for: "Views/App/other.html", count: 2) == nil)
        // Written again under the same version: what that version read stays.
        try JSONEncoder().encode(["<h2>", "</h2>"]).write(to: runsFile)
        #expect(saved.snapshot().markup.runs(for: "Views/App/home.html", count: 2) == [Array("<h1>".utf8), Array("</h1>".utf8)])
        try save(["<h2>", "</h2>"], version: "2")
        #expect(saved.snapshot().markup.runs(for: "Views/App/home.html", count: 2) == [Array("<h2>".utf8), Array("</h2>".utf8)])
        #expect(SavedMarkupFolder(folder: nil).snapshot().markup.runs(for: "Views/App/home.html", count: 2) == nil)
    }
}
