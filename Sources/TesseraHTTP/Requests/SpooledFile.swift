import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Bytes kept in a temporary file instead of memory: a large upload's body as it arrives, and each
/// file it carries. The file's name is removed as soon as it is made, so it disappears when the
/// last copy of this object goes, and with the process if that dies first: nothing is left
/// behind in the folder.
///
/// Only the server writes one (as the body arrives, and as the form reader splits it into its
/// files); everywhere else it is read-only, through ``RequestBody``.
public final class SpooledFile: Sendable {
    private let descriptor: Int32
    private let written = Atomic<Int>(0)

    /// A new, empty file in `directory` (the system's temporary folder by default).
    init(in directory: String = FileManager.default.temporaryDirectory.path) throws {
        var template = Array((directory + "/tessera-upload-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if descriptor >= 0 {
            _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            // Read-only to whoever opens ``path``: only this descriptor, the server's, writes.
            _ = fchmod(descriptor, S_IRUSR)
        }
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["errno": errno, "directory": directory]) }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// How many bytes it holds.
    public var size: Int { written.load(ordering: .acquiring) }

    /// Adds `bytes` at the end; one writer at a time (the connection's thread, or the form reader).
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        let start = size
        var done = 0
        while done < bytes.count {
            let count = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(start + done))
            if count < 0 {
                if errno == EINTR { continue }
                throw CocoaError(.fileWriteUnknown, userInfo: ["errno": errno])
            }
            done += count
        }
        written.store(start + done, ordering: .releasing)
    }

    /// Adds `bytes` at the end.
    func append(_ bytes: some Collection<UInt8>) throws {
        try Array(bytes).withUnsafeBytes { try append($0) }
    }

    /// Up to `count` bytes from `offset`; fewer at the end.
    public func read(at offset: Int, count: Int) throws -> [UInt8] {
        let wanted = max(0, min(count, size - offset))
        var bytes = [UInt8](repeating: 0, count: wanted)
        var done = 0
        while done < wanted {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, wanted - done, off_t(offset + done)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { throw CocoaError(.fileReadUnknown, userInfo: ["errno": errno]) }
            done += got
        }
        return bytes
    }

    /// A path that opens this very file, for libraries that take paths (`/proc/self/fd/N`):
    /// valid while this object lives, and read-only: the file's mode lets nobody but the
    /// superuser open it for writing, so a library handed the path cannot change the upload.
    public var path: String { "/proc/self/fd/\(descriptor)" }
}
