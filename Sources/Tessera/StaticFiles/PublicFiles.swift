import Foundation
import HTTPTypes
import TesseraHTTP
public import TesseraViews

/// Serves the files under a folder (`Public/`), the way a CDN or nginx would: the right
/// `Content-Type`, validators (`ETag`, `Last-Modified`) and 304s, single ranges, gzip for
/// clients that accept it (a pre-compressed `.gz` sibling when there is one, else a copy made at
/// start), and fingerprinted URLs.
///
/// Fingerprinted URLs carry the file's content hash (`/css/site.3f2a1c9e07.css`); templates
/// link them with `{{ "/css/site.css" | asset }}` once the app serves the folder through
/// ``ApplicationBuilder/serve(_:)``. They are cached for a year (`immutable`), since an edited
/// file gets a new name; an old name still finds the file, without the long caching.
///
/// Nothing outside the folder is reachable. The request path is already free of `..`, `.`,
/// `%2F` and NUL (the server refuses those), and on top of that this responder refuses hidden
/// files and backslashes, then resolves symlinks and checks the real path is still inside.
/// Directories are never listed.
///
/// Small files are answered from the copy read at start while one `stat` finds them unchanged,
/// so serving a stylesheet costs about what a page kept in memory does, not eight system calls.
public struct PublicFiles: Sendable {
    /// The folder served, as an absolute path with its symlinks resolved.
    public let root: String
    /// The `Cache-Control` value sent with every file under its plain name.
    public var cacheControl: String
    /// The `Cache-Control` of a fingerprinted URL: its content can never change.
    public static let fingerprintedCacheControl = "public, max-age=31536000, immutable"
    /// Each file's fingerprinted URL, for templates.
    public let assetURLs: AssetURLs
    private let index: StaticAssetIndex

    /// - Parameter root: the folder whose files are served; nothing outside it can be reached.
    ///   Its files are read once now, for their hashes and compressed copies.
    /// - Parameter cacheControl: sent with every file under its plain name, which may change at
    ///   any deploy: by default caches keep it for an hour and revalidate after.
    public init(root: String, cacheControl: String = "public, max-age=3600") {
        let resolved = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
        self.root = resolved.hasSuffix("/") ? String(resolved.dropLast()) : resolved
        self.cacheControl = cacheControl
        self.index = StaticAssetIndex(root: self.root)
        self.assetURLs = index.assetURLs
    }

    /// The answer for `request`, or `nil` when no file matches (so the caller can 404, or try
    /// something else). Only `GET` and `HEAD` are answered.
    public func response(to request: Request) -> Response? {
        guard request.method == .get || request.method == .head else { return nil }
        if let kept = keptResponse(to: request) { return kept }
        guard let found = locate(request.path),
            let file = OpenFile(path: found.path)
        else { return nil }
        // An entry that no longer describes the file (edited since start) is not used.
        let entry = found.entry.flatMap { $0.describes(file) ? $0 : nil }

        let validators = FileValidators(file: file)
        var headers: HTTPFields = [
            .contentType: MediaTypes.forPath(found.path),
            .eTag: validators.eTag,
            .lastModified: validators.lastModified,
            .cacheControl: found.isFingerprinted && entry != nil ? Self.fingerprintedCacheControl : cacheControl,
            .acceptRanges: "bytes",
        ]
        // The gzip form: a sibling no older than the file (an outdated one is ignored), or the
        // copy made at start. Chosen before the 304, which must name the representation it
        // confirms.
        let sibling = OpenFile(path: found.path + ".gz").flatMap { $0.modificationTime >= file.modificationTime ? $0 : nil }
        let gzip: ResponseBody? = sibling.map { .file(FileRegion(file: $0)) } ?? entry?.gzip.map { .bytes($0) }
        if gzip != nil { headers.addVary("Accept-Encoding") }
        let sendsGzip = gzip != nil && AcceptEncoding(request.headers[.acceptEncoding]).allowsGzip
        if sendsGzip { headers[.eTag] = validators.gzipETag }

        if validators.isNotModified(request.headers) {
            return Response(status: .notModified, headers: headers)
        }

        if let rangeHeader = request.headers[.range], validators.rangeApplies(ifRange: request.headers[.ifRange]) {
            // Ranges are of the file itself, never of its gzip form.
            headers[.eTag] = validators.eTag
            switch ByteRange.parse(rangeHeader, size: file.size) {
            case .satisfiable(let range):
                headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(file.size)"
                return Response(status: .partialContent, headers: headers, body: .file(FileRegion(file: file, range: range)))
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(file.size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            case .ignored:
                if sendsGzip { headers[.eTag] = validators.gzipETag }
            }
        }

        if sendsGzip, let gzip {
            headers[.contentEncoding] = "gzip"
            return Response(status: .ok, headers: headers, body: gzip)
        }
        return Response(status: .ok, headers: headers, body: .file(FileRegion(file: file)))
    }

    /// The answer from a file kept whole at start, while `stat` finds it unchanged: the same
    /// headers as from disk, without opening, resolving or reading it. `nil` sends the request
    /// the long way (a range, a `.gz` sibling, a file too large, edited or added since start).
    private func keptResponse(to request: Request) -> Response? {
        guard request.headers[.range] == nil else { return nil }
        let isFingerprinted: Bool
        let entry: StaticAssetIndex.Entry
        if let plain = index.byURL[request.path] {
            (entry, isFingerprinted) = (plain, false)
        } else if let name = Fingerprint.remove(from: request.path), let named = index.byURL[name],
            named.fingerprintedURL == request.path
        {
            (entry, isFingerprinted) = (named, true)
        } else {
            return nil
        }
        guard let content = entry.content, !entry.hasGzipSibling, FileIdentity(path: entry.path) == entry.identity else {
            return nil
        }
        let validators = entry.validators
        var headers: HTTPFields = [
            .contentType: entry.contentType,
            .eTag: validators.eTag,
            .lastModified: validators.lastModified,
            .cacheControl: isFingerprinted ? Self.fingerprintedCacheControl : cacheControl,
            .acceptRanges: "bytes",
        ]
        var body = ResponseBody.bytes(content)
        if let gzip = entry.gzip {
            headers.addVary("Accept-Encoding")
            if AcceptEncoding(request.headers[.acceptEncoding]).allowsGzip {
                headers[.eTag] = validators.gzipETag
                headers[.contentEncoding] = "gzip"
                body = .bytes(gzip)
            }
        }
        if validators.isNotModified(request.headers) {
            headers[.contentEncoding] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The file a request path names: the path itself, or a fingerprinted name of it.
    private func locate(_ requestPath: String) -> (path: String, entry: StaticAssetIndex.Entry?, isFingerprinted: Bool)? {
        if let path = resolve(requestPath) {
            return (path, index.byURL[requestPath], false)
        }
        guard let plain = Fingerprint.remove(from: requestPath), let path = resolve(plain) else { return nil }
        let entry = index.byURL[plain]
        return (path, entry, entry?.fingerprintedURL == requestPath)
    }

    /// Maps a decoded request path onto a real path inside `root`, or `nil`.
    func resolve(_ requestPath: String) -> String? {
        let segments = requestPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard !segments.isEmpty else { return nil }
        for segment in segments {
            guard !segment.isEmpty, !segment.hasPrefix("."), !segment.contains("\\"), !segment.contains("\0") else { return nil }
        }
        let candidate = root + "/" + segments.joined(separator: "/")
        guard let real = realpath(candidate, nil) else { return nil }
        defer { free(real) }
        let resolved = String(cString: real)
        guard resolved.hasPrefix(root + "/") else { return nil }
        return resolved
    }
}

extension PublicFiles: HTTPResponder {
    /// As a responder on its own: a missing file is a 404.
    public func respond(to request: Request) async throws -> Response {
        guard let response = response(to: request) else { throw HTTPError.nothingHere }
        return response
    }
}
