import Foundation

/// Files a generator makes, by path relative to a folder: written all together or not at all,
/// so that a refusal or a failure leaves the folder as it was.
struct GeneratedFiles {
    var files: [(path: String, contents: String)] = []
    /// Existing files to change: path, the text to find once, and what goes before it.
    var insertions: [(path: String, marker: String, line: String)] = []

    mutating func add(_ path: String, _ contents: String) {
        files.append((path, contents))
    }

    mutating func insert(_ line: String, before marker: String, in path: String) {
        insertions.append((path, marker, line))
    }

    /// Checks everything first (no new file exists, each marker is there once, no line is there
    /// already), then writes. A file written before a later one fails is removed again.
    func write(into root: URL) throws {
        let manager = FileManager.default
        for file in files where manager.fileExists(atPath: root.appendingPathComponent(file.path).path) {
            throw Refusal("\(file.path) exists already: nothing was written.")
        }
        var changed: [(url: URL, before: String, after: String)] = []
        for insertion in insertions {
            let url = root.appendingPathComponent(insertion.path)
            let previous = changed.first { $0.url == url }
            guard let original = previous?.before ?? (try? String(contentsOf: url, encoding: .utf8)) else {
                throw Refusal("\(insertion.path) is missing: run this in the folder of an app `tessera new` made. Nothing was written.")
            }
            let before = previous?.after ?? original
            let marker = insertion.marker
            guard before.components(separatedBy: marker).count == 2, let range = before.range(of: marker) else {
                throw Refusal("\(insertion.path) has no line \(marker) (once) to add to: nothing was written.")
            }
            let trimmed = insertion.line.trimmingCharacters(in: .whitespaces)
            guard !before.contains(trimmed) else { throw Refusal("\(insertion.path) has \(trimmed) already: nothing was written.") }
            let lineStart = before[..<range.lowerBound].lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex
            let indent = String(before[lineStart..<range.lowerBound])
            let after = before[..<lineStart] + indent + trimmed + "\n" + before[lineStart...]
            changed.removeAll { $0.url == url }
            changed.append((url, original, String(after)))
        }
        var written: [URL] = []
        do {
            for file in files {
                let url = root.appendingPathComponent(file.path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: url, options: .withoutOverwriting)
                written.append(url)
            }
            for change in changed { try Data(change.after.utf8).write(to: change.url, options: .atomic) }
        } catch {
            for url in written { try? manager.removeItem(at: url) }
            for change in changed { try? Data(change.before.utf8).write(to: change.url, options: .atomic) }
            throw error
        }
    }
}
