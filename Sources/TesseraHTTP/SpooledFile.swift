#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Bytes kept in a temporary file instead of memory: a large upload's body as it arrives, and each
/// file it carries. The file's name is removed as soon as it is made, so it disappears when the
/// last copy of this object goes, and with the process if that dies first: nothing is left
/// behind in the folder.
public final class SpooledFile: @unchecked Sendable {
    // @unchecked: appended to by one thread while a request arrives; read-only once it is handed on.
    private let descriptor: Int32
    /// How many bytes it holds.
    public private(set) var size = 0
    /// The form parsed from it, once: ``Request/form()`` asks more than once.
    private let parsed = Mutex<Result<FormData, HTTPError>?>(nil)

    /// A new, empty file in `directory` (the system's temporary folder by default).
    public init(in directory: String = FileManager.default.temporaryDirectory.path) throws {
        var template = Array((directory + "/tessera-upload-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if descriptor >= 0 {
            _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["errno": errno, "directory": directory]) }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Adds `bytes` at the end.
    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        var written = 0
        while written < bytes.count {
            let count = pwrite(descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(size + written))
            if count < 0 {
                if errno == EINTR { continue }
                throw CocoaError(.fileWriteUnknown, userInfo: ["errno": errno])
            }
            written += count
        }
        size += written
    }

    /// Adds `bytes` at the end.
    public func append(_ bytes: some Collection<UInt8>) throws {
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

    /// Everything, in memory: for files known to be small.
    public func readAll() throws -> [UInt8] {
        try read(at: 0, count: size)
    }

    /// The form `parse` makes of this body, made on the first call only.
    func parsedForm(_ parse: () throws(HTTPError) -> FormData) throws(HTTPError) -> FormData {
        let result = parsed.withLock { cached in
            if let cached { return cached }
            let result: Result<FormData, HTTPError> = Result { () throws(HTTPError) in try parse() }
            cached = result
            return result
        }
        return try result.get()
    }

    /// A path that opens this very file, for libraries that take paths (`/proc/self/fd/N`):
    /// valid while this object lives.
    public var path: String { "/proc/self/fd/\(descriptor)" }

    /// Copies the file to `destination`, which must not exist, in pieces, never all in memory; a
    /// copy that fails halfway is removed.
    public func copy(to destination: String) throws {
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw CocoaError(errno == EEXIST ? .fileWriteFileExists : .fileWriteUnknown) }
        var copied = false
        defer {
            close(output)
            if !copied { unlink(destination) }
        }
        var offset = 0
        while offset < size {
            let piece = try read(at: offset, count: 1 << 16)
            var written = 0
            while written < piece.count {
                let count = piece.withUnsafeBytes { write(output, $0.baseAddress! + written, piece.count - written) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["errno": errno]) }
                written += count
            }
            offset += piece.count
        }
        copied = true
    }
}
