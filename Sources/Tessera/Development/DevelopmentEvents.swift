import Foundation
import TesseraHTTP

/// The event stream of ``DevelopmentReload``: `build` with the running build's name first, then
/// `markup` with the markup version whenever it changes (and at first), `failed` with the
/// compiler's messages whenever the watcher's status file holds some, and `fixed` when it is gone. It ends when the server starts to drain, and the page's
/// `EventSource` reconnects, to the next build, by itself.
struct DevelopmentEvents: Sendable {
    let build: String
    let statusFile: URL
    let markup: SavedMarkupFolder
    let server: HTTPServerState

    /// How often the status file and the server's phase are looked at: a failed build shows
    /// within this, and a restart is not held up longer.
    static let pollInterval = Duration.milliseconds(50)

    func respond(in context: RequestContext) async throws -> Response {
        var response = Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream; charset=utf-8",
                .cacheControl: "no-store",
                HTTPField.Name("X-Accel-Buffering")!: "no",
            ])
        guard context.request.method != .head else { return response }
        let (build, statusFile, markup, server) = (build, statusFile, markup, server)
        response.body = .stream { writer in
            var version = markup.currentVersion()
            try await writer.write("retry: 50\n\nevent: build\ndata: \(build)\n\nevent: markup\ndata: \(version)\n\n")
            try await writer.flush()
            var shown: String?
            var quiet = Duration.zero
            while server.phase == .serving || server.phase == .starting {
                let status = Self.failure(in: statusFile)
                let now = markup.currentVersion()
                if now != version {
                    try await writer.write("event: markup\ndata: \(now)\n\n")
                    try await writer.flush()
                    version = now
                    quiet = .zero
                } else if status != shown {
                    try await writer.write(status.map(Self.failed) ?? "event: fixed\ndata:\n\n")
                    try await writer.flush()
                    shown = status
                    quiet = .zero
                } else if quiet >= .seconds(1) {
                    // A comment: a page that went away is noticed, and its stream ends.
                    try await writer.write(": heartbeat\n\n")
                    try await writer.flush()
                    quiet = .zero
                }
                try await Task.sleep(for: Self.pollInterval)
                quiet += Self.pollInterval
            }
        }
        return response
    }

    /// The messages of a failed build, or `nil` while there is none.
    static func failure(in file: URL) -> String? {
        guard let data = try? Data(contentsOf: file), !data.isEmpty else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// `event: failed`, one `data:` line per line of the messages.
    static func failed(_ messages: String) -> String {
        let lines = messages.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" }
        return "event: failed\n" + lines.map { "data: \($0)\n" }.joined() + "\n"
    }
}
