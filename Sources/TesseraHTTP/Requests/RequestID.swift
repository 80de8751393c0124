import HTTPTypes

/// A request's id: the one a balancer sent in a well-formed `X-Request-ID`, or a new one. It is
/// on every log line of the request and sent back as `X-Request-ID`, so a shopper's report, the
/// balancer's log and the app's all meet on one string.
public enum RequestID {
    /// `X-Request-ID`, the name nginx, Heroku and Rails use.
    public static let header = HTTPField.Name("X-Request-ID")!

    /// 1 to 128 letters, digits and `-_.:+/=`: UUIDs, hex and base64 ids pass; nothing that could
    /// break a log line or a header, or bloat every line of the log, does.
    public static func isWellFormed(_ id: String) -> Bool {
        let bytes = id.utf8
        return (1...128).contains(bytes.count)
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "+"), UInt8(ascii: "/"),
                    UInt8(ascii: "="):
                    true
                default:
                    false
                }
            }
    }
}

/// New request ids: a random prefix per server and a counter, 15 characters, so that each fits
/// in a Swift string without an allocation. Each loop keeps its own, with its own prefix, so a
/// request takes its id without an atomic shared between loops. Unique within a server's life,
/// and across loops and servers but for a one-in-two-billion clash of prefixes.
struct RequestIDGenerator {
    private let prefix: [UInt8]
    private var counter: UInt64 = 0
    private static let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    init() {
        var generator = SystemRandomNumberGenerator()
        prefix = (0..<6).map { _ in Self.digits.randomElement(using: &generator)! }
    }

    /// Six random characters, then the counter in base 36 over nine (36⁹ requests before it wraps).
    mutating func next() -> String {
        counter &+= 1
        var number = counter
        return String(unsafeUninitializedCapacity: 15) { buffer in
            for index in 0..<6 { buffer[index] = prefix[index] }
            for index in (6..<15).reversed() {
                buffer[index] = Self.digits[Int(number % 36)]
                number /= 36
            }
            return 15
        }
    }
}
