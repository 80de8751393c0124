import CZstd
import Crypto
import Foundation

/// Pages the browser may decompress the next page against (RFC 9842, compression dictionary
/// transport): bytes it fetched once and holds, so that a page whose markup it has seen travels
/// as little more than what differs. `/products/2` against `/products/1` is 280 bytes, against
/// 1,945 gzipped (BENCHMARKS.md).
///
/// A dictionary is immutable: its URL names its digest, and browsers keep it a year. It is made
/// only of kept pages (``KeptPages``), which are rendered for nobody, so nothing of a visitor is
/// in it (decision 0040).
final class CompressionDictionary: Sendable {
    /// The dictionary's bytes, as the browser fetches them.
    let bytes: [UInt8]
    /// Its SHA-256, which the browser names in `Available-Dictionary`.
    let digest: [UInt8]
    /// `Available-Dictionary`'s value for it: `:` base64 of the digest `:`.
    let availableValue: String
    /// `/_tessera/dictionary/<first 16 hex digits of the digest>`.
    let path: String
    /// `Link`'s value that announces it.
    let linkValue: String
    /// zstd's prepared form of it, made once: each page compressed against it skips the setup.
    /// zstd only reads it, so any number of compressions may use it at once, each with its own
    /// context.
    private nonisolated(unsafe) let prepared: OpaquePointer

    /// zstd's level for a page compressed per request: fast, and with a dictionary the bytes
    /// that differ are few (level 19 saves 67 more bytes of 280 on a product page).
    static let level: Int32 = 3

    /// `nil` when zstd cannot prepare it (out of memory).
    init?(_ bytes: [UInt8]) {
        guard let prepared = bytes.withUnsafeBytes({ ZSTD_createCDict($0.baseAddress, $0.count, Self.level) }) else { return nil }
        self.bytes = bytes
        self.prepared = prepared
        digest = Array(SHA256.hash(data: bytes))
        availableValue = ":" + Data(digest).base64EncodedString() + ":"
        path = CompressionDictionaries.pathPrefix + digest.prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        linkValue = "<\(path)>; rel=\"compression-dictionary\""
    }

    deinit {
        ZSTD_freeCDict(prepared)
    }

    /// `body` as `Content-Encoding: dcz`: the magic, this dictionary's digest, and a zstd frame
    /// compressed against it; `nil` when zstd fails.
    func compress(_ body: [UInt8]) -> [UInt8]? {
        let bound = ZSTD_compressBound(body.count)
        let header = Self.magic + digest
        let encoded = [UInt8](unsafeUninitializedCapacity: header.count + bound) { buffer, count in
            count = 0
            guard let context = ZSTD_createCCtx() else { return }
            defer { ZSTD_freeCCtx(context) }
            for (index, byte) in header.enumerated() { buffer[index] = byte }
            let written = body.withUnsafeBytes { source in
                ZSTD_compress_usingCDict(context, buffer.baseAddress! + header.count, bound, source.baseAddress, source.count, prepared)
            }
            guard ZSTD_isError(written) == 0 else { return }
            count = header.count + written
        }
        // Copied to its own size: the buffer was made for the worst case, about the whole page.
        guard !encoded.isEmpty else { return nil }
        var exact: [UInt8] = []
        exact.reserveCapacity(encoded.count)
        exact.append(contentsOf: encoded)
        return exact
    }

    /// The first eight bytes of every `dcz` body (RFC 9842, section 4).
    static let magic: [UInt8] = [0x5E, 0x2A, 0x4D, 0x18, 0x20, 0x00, 0x00, 0x00]
}
