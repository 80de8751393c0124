public import Foundation

/// An open, regular file. Opening once and answering from the descriptor means the file that was
/// checked (size, type, modification time) is the file that is sent, even if the path changes.
public final class OpenFile: Sendable {
    let descriptor: Int32
    /// The file's size in bytes when it was opened.
    public let size: Int64
    /// When the file was last changed, for `Last-Modified` and validators.
    public let modificationTime: Date

    /// Opens `path` read-only; `nil` unless it is a regular file that can be read.
    public init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.size = Int64(info.st_size)
        self.modificationTime = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
    }

    deinit {
        close(descriptor)
    }
}

/// A byte range of an ``OpenFile`` to send as a body.
public struct FileRegion: Sendable {
    /// The open file the bytes come from.
    public let file: OpenFile
    /// Where the region starts, in bytes.
    public let offset: Int64
    /// How many bytes the region has.
    public let length: Int64

    /// The whole file, or `range` of it (the caller checks that the range fits).
    public init(file: OpenFile, range: ClosedRange<Int64>? = nil) {
        self.file = file
        self.offset = range?.lowerBound ?? 0
        self.length = range.map { $0.upperBound - $0.lowerBound + 1 } ?? file.size
    }
}

extension FileRegion {
    /// The region's bytes, read into memory; for tests and tools that need the body itself
    /// rather than having the kernel send it.
    public func readBytes() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(length))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(file.descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            }
            guard count > 0 else { break }
            done += count
        }
        return Array(bytes.prefix(done))
    }
}
