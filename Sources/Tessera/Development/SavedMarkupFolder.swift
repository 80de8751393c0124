import Foundation
import Synchronization
import TesseraViews

/// The folder where `make dev`'s watcher (`scripts/dev.py`) saves a template's static runs when
/// only its markup changed since the build (`TESSERA_DEV_MARKUP`), and the file contract it
/// keeps: `<template path>.json`, the runs as a JSON array of strings, and `version`, how many
/// saves there have been, written after the runs, so a page rendered at one version shows every
/// run saved up to it.
///
/// A request reads the version once (``snapshot()``); each template's runs are read from disk
/// once per version and kept until the next one.
final class SavedMarkupFolder: Sendable {
    let folder: URL?
    private let kept = Mutex<(version: String, runs: [String: [[UInt8]]?])>(("", [:]))

    init(folder: URL?) {
        self.folder = folder
    }

    /// The version now, `0` before the first save (and without a folder).
    func currentVersion() -> String {
        guard let folder, let data = try? Data(contentsOf: folder.appendingPathComponent("version")) else { return "0" }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The markup as of the version now: what one request renders with.
    func snapshot() -> Snapshot {
        let version = currentVersion()
        return Snapshot(
            version: version,
            markup: SavedMarkup { [self] path, count in
                guard let runs = runs(for: path, at: version), runs.count == count else { return nil }
                return runs
            })
    }

    /// The runs saved for the template at `path` as of `version`, read once per version.
    fileprivate func runs(for path: String, at version: String) -> [[UInt8]]? {
        if let known = kept.withLock({ $0.version == version ? $0.runs[path] : nil }) { return known }
        let read = folder.flatMap { Self.read(path, in: $0) }
        kept.withLock { kept in
            if kept.version != version { kept = (version, [:]) }
            kept.runs[path] = .some(read)
        }
        return read
    }

    private static func read(_ path: String, in folder: URL) -> [[UInt8]]? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(path + ".json")),
            let runs = try? JSONDecoder().decode([String].self, from: data)
        else { return nil }
        return runs.map { Array($0.utf8) }
    }

    /// The saved markup at one version, as a request's views see it.
    struct Snapshot: Sendable {
        let version: String
        /// What the request's views are given.
        let markup: SavedMarkup
    }
}

/// The saved markup a page renders with, read before it renders; its version goes on the page.
enum RenderedMarkup: RequestValueKey {
    typealias Value = SavedMarkupFolder.Snapshot
}
