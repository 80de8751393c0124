import Foundation
import HTTPTypes
import TesseraHTTP

/// Serves the files under a folder (`Public/`), the way a CDN or nginx would: the right
/// `Content-Type`, validators (`ETag`, `Last-Modified`) and 304s, single ranges, and
/// pre-compressed `.gz` siblings for clients that accept gzip.
///
/// Nothing outside the folder is reachable. The request path is already free of `..`, `.`,
/// `%2F` and NUL (the server refuses those), and on top of that this responder refuses hidden
/// files and backslashes, then resolves symlinks and checks the real path is still inside.
/// Directories are never listed.
public struct PublicFiles: Sendable {
    /// The folder served, as an absolute path with its symlinks resolved.
    public let root: String
    /// The `Cache-Control` value sent with every file.
    public var cacheControl: String

    /// - Parameter root: the folder whose files are served; nothing outside it can be reached.
    /// - Parameter cacheControl: sent with every file. Public files here are not fingerprinted,
    ///   so the default asks caches to keep them for an hour and revalidate after.
    public init(root: String, cacheControl: String = "public, max-age=3600") {
        let resolved = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
        self.root = resolved.hasSuffix("/") ? String(resolved.dropLast()) : resolved
        self.cacheControl = cacheControl
    }

    /// The answer for `request`, or `nil` when no file matches (so the caller can 404, or try
    /// something else). Only `GET` and `HEAD` are answered.
    public func response(to request: Request) -> Response? {
        guard request.method == .get || request.method == .head,
              let path = resolve(request.path),
              let file = OpenFile(path: path)
        else { return nil }

        let validators = FileValidators(file: file)
        var headers: HTTPFields = [
            .contentType: MediaTypes.forPath(path),
            .eTag: validators.eTag,
            .lastModified: validators.lastModified,
            .cacheControl: cacheControl,
            .acceptRanges: "bytes",
        ]
        let gzipPath = path + ".gz"
        let hasGzip = access(gzipPath, R_OK) == 0
        if hasGzip { headers[.vary] = "Accept-Encoding" }

        if validators.isNotModified(request.headers) {
            return Response(status: .notModified, headers: headers)
        }

        if let rangeHeader = request.headers[.range], validators.rangeApplies(ifRange: request.headers[.ifRange]) {
            switch ByteRange.parse(rangeHeader, size: file.size) {
            case .satisfiable(let range):
                headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(file.size)"
                return Response(status: .partialContent, headers: headers, body: .file(FileRegion(file: file, range: range)))
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(file.size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            case .ignored:
                break
            }
        }

        if hasGzip, AcceptEncoding(request.headers[.acceptEncoding]).allowsGzip, let compressed = OpenFile(path: gzipPath) {
            headers[.contentEncoding] = "gzip"
            headers[.eTag] = FileValidators(file: compressed).eTag
            return Response(status: .ok, headers: headers, body: .file(FileRegion(file: compressed)))
        }
        return Response(status: .ok, headers: headers, body: .file(FileRegion(file: file)))
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
        guard let response = response(to: request) else { throw HTTPError(.notFound) }
        return response
    }
}
