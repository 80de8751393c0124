import TesseraHTTP
import TesseraViews

/// Adds ``DevelopmentReload``'s script to every HTML page, just before `</body>`, with the name
/// of the build that rendered it and the markup version it was rendered at; as Phoenix's
/// live-reload plug does. A page streamed in parts gets it at its end. Anything but HTML goes out
/// untouched.
struct DevelopmentReloadMiddleware: Middleware {
    let start: [UInt8]
    let markup: SavedMarkupFolder

    init(build: String, markup: SavedMarkupFolder) {
        var attribute = HTMLOutput(capacity: 32)
        attribute.attribute(build)
        start = Array("<script src=\"\(DevelopmentReload.scriptPath)\" data-tessera-build=\"".utf8) + attribute.bytes
        self.markup = markup
    }

    /// Reads the markup version once, before the page renders: every view of the request renders
    /// the runs saved up to it, and a save after it reloads the page again.
    func before(_ context: inout RequestContext) throws -> NowOrLater<RequestContext, Response?> {
        context[RenderedMarkup.self] = markup.snapshot()
        return .next
    }

    /// Error pages too: a page that failed is the one a developer is looking at.
    var runsForRejectedRequests: Bool { true }

    func after(_ response: inout Response, for context: RequestContext) {
        guard response.isHTML else { return }
        var version = HTMLOutput(capacity: 8)
        version.attribute(context[RenderedMarkup.self]?.version ?? "0")
        let tag = start + Array("\" data-tessera-markup=\"".utf8) + version.bytes + Array("\" defer></script>".utf8)
        switch response.body {
        case .bytes(let bytes):
            response.body = .bytes(Self.inserting(tag, into: bytes))
        case .stream(let write):
            response.body = .stream { writer in
                try await write(writer)
                try await writer.write(tag)
            }
        default:
            return
        }
        response.headers[.contentLength] = nil
    }

    /// `bytes` with `tag` before the last `</body>`, or at the end when there is none.
    static func inserting(_ tag: [UInt8], into bytes: [UInt8]) -> [UInt8] {
        let end = Array("</body>".utf8)
        var index = bytes.count - end.count
        while index >= 0 {
            if bytes[index..<(index + end.count)].elementsEqual(end) {
                return Array(bytes[..<index]) + tag + Array(bytes[index...])
            }
            index -= 1
        }
        return bytes + tag
    }
}
