import Crypto

/// The version of a rendered region: a digest of its bytes, so that every instance computes the
/// same one for the same fragment, and a page and its stream agree on what the page shows
/// without storing anything. Written as `data-region-version`; a stream sends a region only
/// when its version differs from the one the page has.
enum RegionVersion {
    /// The first 88 bits of the fragment's SHA-256, in base64url: 15 characters, a string Swift
    /// keeps inline, so a live region costs its page one hash and no allocation.
    static func of(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).withUnsafeBytes { digest in Base64URL.encode(digest.prefix(11)) }
    }

    /// Whether `text` could be a version: a scraper's or a stale page's guess is checked, never trusted.
    static func isWellFormed(_ text: some StringProtocol) -> Bool {
        (1...32).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
            }
    }
}
