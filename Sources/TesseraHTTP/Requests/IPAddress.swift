#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A client's IPv4 or IPv6 address. It is kept as bytes and turned into text only when read,
/// because most requests never look at it and formatting costs more than the rest of parsing.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    private let high: UInt64
    private let low: UInt64
    /// Whether the address is IPv6 (else IPv4).
    public let isIPv6: Bool

    /// 4 bytes for IPv4, 16 for IPv6.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyBytes(from: bytes) }
        high = words.0
        low = words.1
        isIPv6 = bytes.count == 16
    }

    /// Parses `127.0.0.1` or `::1`.
    public init?(_ text: String) {
        var storage: (UInt64, UInt64) = (0, 0)
        if withUnsafeMutableBytes(of: &storage, { inet_pton(AF_INET, text, $0.baseAddress) }) == 1 {
            self.init(bytes: withUnsafeBytes(of: storage) { Array($0.prefix(4)) })
        } else if withUnsafeMutableBytes(of: &storage, { inet_pton(AF_INET6, text, $0.baseAddress) }) == 1 {
            self.init(bytes: withUnsafeBytes(of: storage) { Array($0) })
        } else {
            return nil
        }
    }

    /// The usual text form: `127.0.0.1` or `::1`.
    public var description: String {
        var words = (high, low)
        return withUnsafeBytes(of: &words) { raw in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
                guard inet_ntop(isIPv6 ? AF_INET6 : AF_INET, raw.baseAddress, buffer.baseAddress, 64) != nil else { return "?" }
                return String(cString: buffer.baseAddress!)
            }
        }
    }
}
