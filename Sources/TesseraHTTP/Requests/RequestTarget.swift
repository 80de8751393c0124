/// The request target (`/path?query`) split and decoded, with the tricks that matter refused.
///
/// The path is decoded once, here, so nothing above this layer ever sees an escape.
/// Because of that, a few encodings are refused outright instead of being passed on:
/// - `%2F` (an encoded `/`): after decoding it would be indistinguishable from a real separator;
/// - `%00` (NUL): C APIs below would truncate the path at it;
/// - `.` and `..` segments, encoded or not: they have no meaning in a route, and only matter to traversal;
/// - an escaped letter, digit or `-._~` (`%61` for `a`): RFC 3986 makes it the same address as the
///   plain one, so a cache would keep one resource under two keys. Every address has one spelling;
///   this one is a 404.
struct RequestTarget: Equatable {
    var path: String
    var query: QueryParameters

    /// Parses a target as libmicrohttpd handed it over.
    static func parse(_ target: String) throws(HTTPError) -> RequestTarget {
        // Most targets are plain paths (`/products/12`): nothing to decode, no query, no dot
        // segment. Those reuse the string as it is.
        var copy = target
        if copy.withUTF8(isPlainPath) { return RequestTarget(path: target, query: QueryParameters()) }
        return try parse(originForm(of: Array(target.utf8)))
    }

    /// The absolute form (`http://host/path?q`), which RFC 9112 says a server must accept, as
    /// the origin form it stands for (`/path?q`); any other target as it is.
    private static func originForm(of raw: [UInt8]) -> ArraySlice<UInt8> {
        for scheme in ["http://", "https://"] {
            let prefix = Array(scheme.utf8)
            guard raw.count >= prefix.count,
                zip(raw, prefix).allSatisfy({ asciiLowercased($0) == $1 })
            else { continue }
            let afterAuthority = raw[prefix.count...]
            guard let end = afterAuthority.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) else {
                return [UInt8(ascii: "/")][...]
            }
            return raw[end] == UInt8(ascii: "/") ? raw[end...] : ArraySlice([UInt8(ascii: "/")] + raw[end...])
        }
        return raw[...]
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte
    }

    private static func isPlainPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.first == UInt8(ascii: "/") else { return false }
        var previous = UInt8(0)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return false
            case UInt8(ascii: "/") where previous == UInt8(ascii: "."):
                return false  // `/./` or `/../` (and `x./`, which the full parser handles fine)
            case 0x80...:
                return false  // let the full parser validate UTF-8
            default:
                break
            }
            previous = byte
        }
        return previous != UInt8(ascii: ".")  // a trailing `.` may be a trailing dot segment
    }

    /// Whether `segment` has an escape for a character RFC 3986 calls unreserved, which is never escaped.
    private static func escapesUnreservedCharacter(_ segment: some Collection<UInt8>) -> Bool {
        var bytes = segment.makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "%") else { continue }
            // The decoder has already refused a malformed escape.
            guard let high = bytes.next().flatMap(PercentDecoding.hexValue), let low = bytes.next().flatMap(PercentDecoding.hexValue) else {
                return false
            }
            switch Character(Unicode.Scalar(high << 4 | low)) {
            case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", "~": return true
            default: continue
            }
        }
        return false
    }

    static func parse(_ raw: some BidirectionalCollection<UInt8>) throws(HTTPError) -> RequestTarget {
        guard raw.first == UInt8(ascii: "/") else {
            throw HTTPError(.targetNotAPath)
        }
        let withoutFragment = raw[..<(raw.firstIndex(of: UInt8(ascii: "#")) ?? raw.endIndex)]
        let questionMark = withoutFragment.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = withoutFragment[..<(questionMark ?? withoutFragment.endIndex)]
        let rawQuery = questionMark.map { withoutFragment[withoutFragment.index(after: $0)...] }

        var segments: [String] = []
        for rawSegment in rawPath.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst() {
            let segment: String
            do {
                segment = try PercentDecoding.decode(rawSegment, plusIsSpace: false)
            } catch {
                throw HTTPError(.pathNotUTF8)
            }
            if segment.utf8.contains(UInt8(ascii: "/")) {
                throw HTTPError(.pathEncodedSlash)
            }
            if segment.utf8.contains(0) {
                throw HTTPError(.pathNUL)
            }
            if segment == "." || segment == ".." {
                throw HTTPError(.pathDotSegment)
            }
            if escapesUnreservedCharacter(rawSegment) {
                throw HTTPError(.pathNeedlessEscape)
            }
            segments.append(segment)
        }
        let query = try rawQuery.map { encoded throws(HTTPError) in try QueryParameters(parsing: encoded) } ?? QueryParameters()
        return RequestTarget(path: "/" + segments.joined(separator: "/"), query: query)
    }
}
