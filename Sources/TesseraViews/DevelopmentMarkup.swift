import Foundation

/// Under `make dev`, a template's static runs as the developer last saved them, when only its
/// markup changed since the build: the watcher (`scripts/dev.py`) writes them to the folder
/// `TESSERA_DEV_MARKUP` names, and the open page reloads without a rebuild.
///
/// Generated views ask for it in debug builds only (`#if DEBUG`): a release build has no such
/// call, and reads nothing at run time.
public struct DevelopmentMarkup: Sendable {
    /// The runs' bytes, in the order the view writes them.
    let runs: [[UInt8]]

    /// The saved runs of the template at `path` (`Views/Cookbook/home.html`), when the watcher
    /// wrote `runs` of them for it; `nil` otherwise, and always without `TESSERA_DEV_MARKUP`.
    public static func saved(for path: String, runs count: Int) -> DevelopmentMarkup? {
        guard let folder = ProcessInfo.processInfo.environment["TESSERA_DEV_MARKUP"], !folder.isEmpty,
            let data = FileManager.default.contents(atPath: folder + "/" + path + ".json"),
            let runs = try? JSONDecoder().decode([String].self, from: data), runs.count == count
        else { return nil }
        return DevelopmentMarkup(runs: runs.map { Array($0.utf8) })
    }
}

extension HTMLOutput {
    /// `text`, or the saved run `index` when `make dev` saved the template's markup.
    public mutating func write(static text: StaticString, saved markup: DevelopmentMarkup?, at index: Int) {
        guard let markup else { return write(static: text) }
        write(trusted: markup.runs[index])
    }
}
