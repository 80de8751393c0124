import Crypto

#if canImport(Glibc)
import Glibc
#endif

/// Bytes from the system's cryptographic generator, drawn in one call.
///
/// swift-crypto's `SymmetricKey(size:)` fills a key eight bytes at a time through
/// `SystemRandomNumberGenerator`, which on Linux is one `getrandom(2)` system call per eight
/// bytes: a new session's id and token (48 bytes) cost six calls, on every first visit.
/// `getentropy(3)` (POSIX, glibc 2.25) asks the kernel once for up to 256 bytes, from the same
/// source.
enum SecureRandomBytes {
    static func draw(_ count: Int) -> [UInt8] {
        #if canImport(Glibc)
        if count <= 256 {
            var bytes = [UInt8](repeating: 0, count: count)
            if bytes.withUnsafeMutableBytes({ getentropy($0.baseAddress!, $0.count) }) == 0 { return bytes }
        }
        #endif
        // Elsewhere, for longer draws, or should the kernel refuse: eight bytes a call.
        return SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }
}
