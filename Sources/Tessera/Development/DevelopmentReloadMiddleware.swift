import TesseraHTTP
import TesseraViews

/// Adds ``DevelopmentReload``'s script to every HTML page, just before `</body>`, with the name
/// of the build that rendered it; as Phoenix's live-reload plug does. A page streamed in parts
/// gets it at its end. Anything but HTML goes out untouched.
struct DevelopmentReloadMiddleware: Middleware {
    let tag: [UInt8]

    init(build: String) {
        var attribute = HTMLOutput(capacity: 32)
        attribute.attribute(build)
        tag =
            Array("<script src=\"\(DevelopmentReload.scriptPath)\" data-tessera-build=\"".utf8)
            + attribute.bytes + Array("\" defer></script>".utf8)
    }

    /// Error pages too: a page that failed is the one a developer is looking at.
    var runsForRejectedRequests: Bool { true }

    func after(_ response: inout Response, for context: RequestContext) {
        guard response.isHTML else { return }
        let tag = self.tag
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
