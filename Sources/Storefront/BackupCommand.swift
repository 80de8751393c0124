import ArgumentParser
import Catalog
import Foundation
import GRDB
import Tessera

/// `storefront backup PATH`: a consistent copy of the live database, taken with SQLite's online
/// backup (through GRDB) while the server keeps serving, and of its product photos. The copy is
/// one read transaction's snapshot: every order in it is whole, however busy the shop. It is
/// written under a temporary name and renamed at the end, so a copy that stopped halfway never
/// looks like a backup.
///
/// The photos (`DATA_DIR/photos`) go to `PATH-photos/`, after the database: a photo's files are
/// written before its row and never changed or removed, so every photo the snapshot names is
/// there. They are hard links when the backup is on the same file system (the files are never
/// written again, so a link is a copy), copies otherwise.
///
/// To restore: stop the server, copy the backup to `DATA_DIR/storefront.sqlite` (removing the
/// `-wal` and `-shm` files beside it) and `PATH-photos` to `DATA_DIR/photos`, start the server.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a consistent copy of the live database to PATH while the server keeps serving."
    )

    @Argument(help: "The file to write. Its folder must exist and be writable; the file must not exist.")
    var path: String

    @Option(name: .customLong("data-dir"), help: "Folder of the live database. [env: DATA_DIR] (default: ./data)")
    var dataDirectory: String?

    func run() async throws {
        let folder = ServerOptions.dataDirectory(dataDirectory)
        let live = StorefrontDatabase.file(in: folder).standardizedFileURL
        let destination = URL(fileURLWithPath: path).standardizedFileURL
        let livePhotos = URL(fileURLWithPath: StorefrontDatabase.photoFolder(in: folder)).standardizedFileURL
        let photosDestination = Self.photoFolder(besides: destination)
        let partial = try await UsageError.reported {
            guard !FileManager.default.fileExists(atPath: photosDestination.path) else {
                throw ValidationError("\(photosDestination.path) exists already; a backup never overwrites a file.")
            }
            return try Self.check(live: live, destination: destination)
        }
        do {
            // Not read-only: a read-only open of a WAL database fails when the server is stopped
            // (no -shm file). Nothing is written: the copy is one read transaction.
            var patient = Configuration()
            patient.busyMode = .timeout(10)
            let source = try DatabasePool(path: live.path, configuration: patient)
            let copy = try DatabaseQueue(path: partial.path)
            try source.backup(to: copy)
            let verdict = try await copy.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
            guard verdict == "ok" else { throw BackupFailed(reason: "the copy failed its integrity check: \(verdict ?? "no answer")") }
            try copy.close()
            try source.close()
            // A hard link, not a rename: it fails rather than replace a file that appeared since.
            guard link(partial.path, destination.path) == 0 else {
                throw BackupFailed(reason: "could not put the copy at \(destination.path): \(String(cString: strerror(errno)))")
            }
            unlink(partial.path)
        } catch {
            for leftover in [partial.path, partial.path + "-journal"] { unlink(leftover) }
            throw error
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int) ?? 0
        print("backed up \(live.path) to \(destination.path) (\(size) bytes, integrity ok)")
        let photos = try Self.copyPhotos(from: livePhotos, to: photosDestination)
        print("backed up \(photos) photo files to \(photosDestination.path)")
    }

    /// Where the photos of the backup at `destination` go: `PATH-photos`.
    static func photoFolder(besides destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(destination.lastPathComponent + "-photos")
    }

    /// Links (or copies) every file of `source` into a new folder at `destination`, written under
    /// a temporary name and renamed when whole; returns how many. No photos yet: an empty folder.
    static func copyPhotos(from source: URL, to destination: URL) throws -> Int {
        let files = FileManager.default
        let partial = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).partial-\(getpid())")
        do {
            try files.createDirectory(at: partial, withIntermediateDirectories: false)
            let names = files.fileExists(atPath: source.path) ? try files.contentsOfDirectory(atPath: source.path) : []
            // Photos' files by their names: not the temporary file of a variant being written
            // this moment, which is renamed into place when whole.
            let photos = names.filter { PhotoVariantName(pathSegment: $0) != nil }
            for name in photos {
                let from = source.appendingPathComponent(name), to = partial.appendingPathComponent(name)
                if link(from.path, to.path) != 0 { try files.copyItem(at: from, to: to) }
            }
            guard rename(partial.path, destination.path) == 0 else {
                throw BackupFailed(reason: "could not put the photos at \(destination.path): \(String(cString: strerror(errno)))")
            }
            return photos.count
        } catch {
            try? files.removeItem(at: partial)
            throw error
        }
    }

    /// Refuses what would fail halfway or do harm, before the live database is opened, and
    /// returns the file the copy is written to first: creating it is the test that the folder
    /// can be written (`access` says yes to root even on a read-only file system).
    static func check(live: URL, destination: URL) throws -> URL {
        let files = FileManager.default
        guard files.fileExists(atPath: live.path) else {
            throw ValidationError("There is no storefront database at \(live.path); set --data-dir or DATA_DIR.")
        }
        let folder = destination.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("The backup's folder \(folder.path) does not exist.")
        }
        guard !files.fileExists(atPath: destination.path) else {
            throw ValidationError("\(destination.path) exists already; a backup never overwrites a file.")
        }
        let partial = folder.appendingPathComponent(".\(destination.lastPathComponent).partial-\(getpid())")
        let probe = open(partial.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard probe >= 0 else {
            throw ValidationError("The backup's folder \(folder.path) cannot be written: \(String(cString: strerror(errno))).")
        }
        close(probe)
        return partial
    }

    struct BackupFailed: Error, CustomStringConvertible {
        let reason: String
        var description: String { "The backup failed: \(reason)" }
    }
}
