/// The paths that hold a secret, such as a password reset link's token, and what logs and traces
/// show instead of them: the route's pattern, `/password/reset/{token}`.
///
/// The server matches a request's target against these as soon as its head is read, before
/// anything can log it: a request refused before routing (over the connection cap, past its
/// deadline, a bad header) is hidden as well as a routed one. The app's responder says which
/// paths these are (``HTTPResponder/secretPaths``), from its route table.
public struct SecretPaths: Sendable {
    /// One secret-bearing path: its segments, `nil` where any segment fits, and what is shown
    /// instead of a path it matches.
    public struct Pattern: Sendable {
        let segments: [String?]
        let shown: String

        /// - Parameters:
        ///   - segments: the path's segments between slashes, `nil` for the secret ones (the
        ///     route's captures).
        ///   - shown: what logs and traces show for a matching path, such as the route's pattern.
        public init(segments: [String?], shown: String) {
            self.segments = segments
            self.shown = shown
        }
    }

    private let patterns: [Pattern]

    /// No path holds a secret.
    public static let none = SecretPaths([])

    public init(_ patterns: [Pattern]) {
        self.patterns = patterns
    }

    /// What logs and traces show for `target` (a path, with or without its query, as the client
    /// sent it): a matching pattern's text, or `nil` when `target` holds no secret.
    ///
    /// A path matches when its first segments match a pattern's, each compared after
    /// percent-decoding and with empty segments skipped, so that `//password/%72eset/…/x` is
    /// hidden as well: a spelling the router would refuse still carries the token.
    public func shown(for target: String) -> String? {
        guard !patterns.isEmpty else { return nil }
        let path = target.utf8.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        for pattern in patterns where Self.path(path, startsWith: pattern.segments) {
            return pattern.shown
        }
        return nil
    }

    private static func path(_ path: Substring.UTF8View, startsWith segments: [String?]) -> Bool {
        var rest = path[...]
        for expected in segments {
            while rest.first == UInt8(ascii: "/") { rest = rest.dropFirst() }
            guard !rest.isEmpty else { return false }
            let end = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            let segment = rest[..<end]
            rest = rest[end...]
            guard let expected else { continue }
            if segment.elementsEqual(expected.utf8) { continue }
            guard segment.contains(UInt8(ascii: "%")), (try? PercentDecoding.decode(segment, plusIsSpace: false)) == expected else {
                return false
            }
        }
        return true
    }
}
