import Foundation

/// Which version of a file is on disk: its device, inode, size and modification time to the
/// nanosecond, read with one `stat`.
///
/// Two equal identities are the same bytes, so a copy read earlier may be sent instead of
/// reading the file again: one system call per request instead of the eight that opening,
/// resolving and reading it take.
struct FileIdentity: Sendable, Equatable {
    private let device: UInt64
    private let inode: UInt64
    private let size: Int64
    private let modifiedSeconds: Int
    private let modifiedNanoseconds: Int

    /// The identity of the regular file at `path`, or `nil` when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
    }
}
