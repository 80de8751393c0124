import Foundation

/// How many times `make dev` has saved markup since the build: the watcher writes the number to
/// `version` in the markup folder (`TESSERA_DEV_MARKUP`) after the runs themselves, so a page
/// rendered at one number shows every run saved up to it.
struct DevelopmentMarkupVersion: Sendable {
    let folder: URL?

    /// The number now, `0` before the first save (and without a folder).
    func current() -> String {
        guard let folder, let data = try? Data(contentsOf: folder.appendingPathComponent("version")) else { return "0" }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The markup version a page was rendered at, read before it renders.
enum RenderedMarkupVersion: RequestValueKey {
    typealias Value = String
}
