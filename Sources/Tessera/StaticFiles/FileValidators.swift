import FoundationEssentials
import HTTPTypes
import TesseraHTTP

/// `ETag` and `Last-Modified` for a file, and the conditional-request rules that use them
/// (RFC 9110 §13): `If-None-Match` wins over `If-Modified-Since`.
struct FileValidators: Sendable {
    let eTag: String
    let lastModified: String
    private let modifiedSeconds: Int64

    init(file: OpenFile) {
        modifiedSeconds = Int64(file.modificationTime.timeIntervalSince1970)
        eTag = "\"\(String(file.size, radix: 16))-\(String(modifiedSeconds, radix: 16))\""
        lastModified = HTTPDate.format(secondsSince1970: modifiedSeconds)
    }

    /// The `ETag` of the file's gzip form, which is another representation of the same version.
    var gzipETag: String {
        String(eTag.dropLast()) + "-gzip\""
    }

    func isNotModified(_ headers: RequestHeaders) -> Bool {
        if let ifNoneMatch = headers[.ifNoneMatch] {
            let listed = EntityTagList(ifNoneMatch)
            return listed.matches(eTag) || listed.matches(gzipETag)
        }
        if let ifModifiedSince = headers[.ifModifiedSince], let since = HTTPDate.parse(ifModifiedSince) {
            return modifiedSeconds <= since
        }
        return false
    }

    /// `If-Range`: a range is only honoured if the client's copy is this version.
    func rangeApplies(ifRange: String?) -> Bool {
        guard let ifRange else { return true }
        if ifRange.hasPrefix("\"") { return ifRange == eTag }
        return HTTPDate.parse(ifRange) == modifiedSeconds
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> Substring {
        var result = self
        while let first = result.first, set.contains(first) { result = result.dropFirst() }
        while let last = result.last, set.contains(last) { result = result.dropLast() }
        return result
    }
}
