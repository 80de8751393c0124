import Crypto
import Foundation
import TesseraHTTP
import TesseraViews

/// The files of a public folder, read once when the app starts: each file's content hash, for
/// fingerprinted URLs, and a gzip copy of each compressible file that has no `.gz` sibling.
///
/// Computing it at start is what makes fingerprints need no build step: a deploy (or a restart
/// after an edit) gives every changed file its new URL. A file edited while the server runs is
/// noticed by its size and modification time, and served fresh, without the year-long caching,
/// until the next start.
///
/// Small files are kept whole, with their headers made once: while `stat` finds the file as it
/// was, a request for it costs no more than a page kept in memory.
struct StaticAssetIndex: Sendable {
    struct Entry: Sendable {
        /// The real path on disk.
        let path: String
        /// The URL path with the content hash in the file name.
        let fingerprintedURL: String
        let size: Int64
        let modificationTime: Date
        /// The whole file gzipped, for a compressible file without a `.gz` sibling.
        let gzip: [UInt8]?
        /// Whether a `.gz` sibling was there at start: it is then read per request.
        let hasGzipSibling: Bool
        /// The file's bytes, for a file no larger than ``StaticAssetIndex/largestKeptFile``.
        let content: [UInt8]?
        /// The version of the file `content` and `gzip` were read from.
        let identity: FileIdentity
        /// Its `ETag` and `Last-Modified`, made once.
        let validators: FileValidators
        let contentType: String

        /// Whether `file` is still the file this entry describes.
        func describes(_ file: OpenFile) -> Bool {
            file.size == size && file.modificationTime == modificationTime
        }
    }

    /// Files larger than this are served but not fingerprinted or compressed in memory: a
    /// public folder of a few such files stays a few megabytes in memory at most.
    static let largestIndexedFile: Int64 = 1024 * 1024

    /// Files up to this size are kept whole in memory (a public folder's pages, styles and
    /// scripts), until ``keptBytesLimit`` is reached; others are sent from disk by the kernel.
    static let largestKeptFile: Int64 = 64 * 1024
    static let keptBytesLimit: Int64 = 32 * 1024 * 1024

    /// By the file's plain URL path, `/css/site.css`.
    private(set) var byURL: [String: Entry] = [:]

    /// What templates link to: each indexed file's fingerprinted URL.
    var assetURLs: AssetURLs {
        AssetURLs(byURL.mapValues(\.fingerprintedURL))
    }

    init(root: String) {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return }
        var keptBytes: Int64 = 0
        while let relative = walker.nextObject() as? String {
            let components = relative.split(separator: "/")
            guard !components.contains(where: { $0.hasPrefix(".") }), !relative.hasSuffix(".gz") else { continue }
            // Only what PublicFiles would serve: a symlink that leads outside is not indexed.
            guard
                let path = realpath(root + "/" + relative, nil).map({ pointer in
                    defer { free(pointer) }
                    return String(cString: pointer)
                }), path.hasPrefix(root + "/"),
                let identity = FileIdentity(path: path),
                let file = OpenFile(path: path), file.size <= Self.largestIndexedFile
            else { continue }
            let bytes = FileRegion(file: file).readBytes()
            // Read between two stats that agree, so the bytes are the version the identity names.
            guard FileIdentity(path: path) == identity else { continue }
            let hasGzipSibling = access(path + ".gz", R_OK) == 0
            let isKept = file.size <= Self.largestKeptFile && keptBytes + file.size <= Self.keptBytesLimit
            if isKept { keptBytes += file.size }
            let url = "/" + relative
            let entry = Entry(
                path: path, fingerprintedURL: Fingerprint.add(Fingerprint.of(bytes), to: url),
                size: file.size, modificationTime: file.modificationTime,
                gzip: hasGzipSibling ? nil : Self.gzip(bytes, of: path), hasGzipSibling: hasGzipSibling,
                content: isKept ? bytes : nil, identity: identity,
                validators: FileValidators(file: file), contentType: MediaTypes.forPath(path)
            )
            byURL[url] = entry
        }
    }
}

extension StaticAssetIndex {
    /// The file gzipped, when it is text without a `.gz` sibling and compressing saves bytes.
    private static func gzip(_ bytes: [UInt8], of path: String) -> [UInt8]? {
        guard MediaTypes.isCompressible(MediaTypes.forPath(path)),
            let compressed = GzipEncoder.gzip(bytes, level: GzipEncoder.once), compressed.count < bytes.count
        else { return nil }
        return compressed
    }
}

/// The content hash in a file name: `site.css` → `site.3f2a1c9e07.css`.
enum Fingerprint {
    static let length = 10

    /// The first ``length`` hex digits of the bytes' SHA-256.
    static func of(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).prefix(length / 2).map { String(format: "%02x", $0) }.joined()
    }

    static func add(_ hash: String, to url: String) -> String {
        let slash = url.lastIndex(of: "/").map { url.index(after: $0) } ?? url.startIndex
        guard let dot = url[slash...].lastIndex(of: "."), dot > slash else { return url + "." + hash }
        return String(url[..<dot]) + "." + hash + String(url[dot...])
    }

    /// `url` without a fingerprint-shaped part in its file name, or `nil` when it has none: an
    /// old fingerprint after a deploy still finds the file.
    static func remove(from url: String) -> String? {
        let slash = url.lastIndex(of: "/").map { url.index(after: $0) } ?? url.startIndex
        var parts = url[slash...].split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        let position = parts.count == 2 ? 1 : parts.count - 2
        let candidate = parts[position]
        guard candidate.count == length, candidate.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        parts.remove(at: position)
        return String(url[..<slash]) + parts.joined(separator: ".")
    }
}
