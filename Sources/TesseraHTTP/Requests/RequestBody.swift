import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Bytes a client sent: a request's body, or one file of a multipart body. In memory when small;
/// in a ``SpooledFile`` when the server wrote it to disk as it arrived. The one type from the
/// server through the form reader to whatever reads an upload (an image processor), so a large
/// upload is never copied into memory on the way.
public enum RequestBody: Sendable {
    case memory([UInt8])
    case spooled(SpooledFile)

    /// No bytes.
    public static let empty = RequestBody.memory([])

    /// How many bytes there are.
    public var count: Int {
        switch self {
        case .memory(let bytes): bytes.count
        case .spooled(let file): file.size
        }
    }

    /// Whether there are none.
    public var isEmpty: Bool { count == 0 }

    /// Up to `count` bytes from `offset`; fewer at the end.
    public func read(at offset: Int, count: Int) throws -> [UInt8] {
        switch self {
        case .memory(let bytes):
            let start = min(max(0, offset), bytes.count)
            return Array(bytes[start..<(start + min(bytes.count - start, max(0, count)))])
        case .spooled(let file):
            return try file.read(at: offset, count: count)
        }
    }

    /// The first `count` bytes (fewer when there are fewer): enough to tell a file's type.
    public func prefix(_ count: Int) throws -> [UInt8] {
        try read(at: 0, count: count)
    }

    /// All of them, in memory: for bodies known to be small.
    public func bytes() throws -> [UInt8] {
        switch self {
        case .memory(let bytes): bytes
        case .spooled(let file): try file.read(at: 0, count: file.size)
        }
    }

    /// Copies the bytes to `destination`, which must not exist, a piece at a time, never all in
    /// memory; a copy that fails halfway is removed.
    public func copy(to destination: String) throws {
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw CocoaError(errno == EEXIST ? .fileWriteFileExists : .fileWriteUnknown) }
        var copied = false
        defer {
            close(output)
            if !copied { unlink(destination) }
        }
        var offset = 0
        while offset < count {
            let piece = try read(at: offset, count: 1 << 16)
            var written = 0
            while written < piece.count {
                let done = piece.withUnsafeBytes { write(output, $0.baseAddress! + written, piece.count - written) }
                if done < 0, errno == EINTR { continue }
                guard done > 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["errno": errno]) }
                written += done
            }
            offset += piece.count
        }
        copied = true
    }
}
