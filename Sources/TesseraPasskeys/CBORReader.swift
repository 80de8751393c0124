/// Reads CBOR (RFC 8949) from bytes an authenticator wrote, which a client relays and may have
/// changed: every length is checked against what is left, nesting is bounded, and anything
/// malformed is a ``CBORReader/Malformed`` error, never a crash.
struct CBORReader {
    /// Why the bytes are not CBOR.
    struct Malformed: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    private let bytes: [UInt8]
    /// Where the next value starts.
    private(set) var offset: Int
    private let maximumDepth: Int

    init(_ bytes: some Collection<UInt8>, maximumDepth: Int = 16) {
        self.bytes = Array(bytes)
        self.offset = 0
        self.maximumDepth = maximumDepth
    }

    /// The bytes after the last value read: the authenticator data's extensions follow its key.
    var remaining: ArraySlice<UInt8> { bytes[offset...] }

    /// The one value in `bytes`; trailing bytes are an error.
    static func decode(_ bytes: some Collection<UInt8>) throws(Malformed) -> CBOR {
        var reader = CBORReader(bytes)
        let value = try reader.read()
        guard reader.remaining.isEmpty else { throw Malformed(description: "\(reader.remaining.count) bytes after the value") }
        return value
    }

    /// The next value.
    mutating func read() throws(Malformed) -> CBOR {
        try read(depth: 0)
    }

    private mutating func read(depth: Int) throws(Malformed) -> CBOR {
        guard depth <= maximumDepth else { throw Malformed(description: "nested deeper than \(maximumDepth)") }
        let initial = try byte()
        let major = initial >> 5
        let additional = initial & 0x1F
        if additional == 31 {
            return try indefinite(major: major, depth: depth)
        }
        if major == 7 { return try simpleOrFloat(additional) }
        let argument = try self.argument(additional)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(Array(try take(argument)))
        case 3:
            guard let text = String(validating: try take(argument), as: UTF8.self) else {
                throw Malformed(description: "a text string that is not UTF-8")
            }
            return .text(text)
        case 4:
            let count = try self.count(argument, bytesEach: 1)
            var items: [CBOR] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(try read(depth: depth + 1)) }
            return .array(items)
        case 5:
            let count = try self.count(argument, bytesEach: 2)
            var pairs: [CBOR.Pair] = []
            pairs.reserveCapacity(count)
            for _ in 0..<count {
                let key = try read(depth: depth + 1)
                pairs.append(CBOR.Pair(key: key, value: try read(depth: depth + 1)))
            }
            return .map(pairs)
        default:  // 6
            return .tagged(argument, CBOR.Box(try read(depth: depth + 1)))
        }
    }

    /// Strings made of definite chunks, and arrays and maps that end with a break (0xFF).
    private mutating func indefinite(major: UInt8, depth: Int) throws(Malformed) -> CBOR {
        switch major {
        case 2, 3:
            var joined: [UInt8] = []
            while try !atBreak() {
                // Chunks are definite strings of the same type (RFC 8949 §3.2.3).
                guard offset < bytes.count, bytes[offset] & 0x1F != 31 else {
                    throw Malformed(description: "an indefinite chunk inside an indefinite string")
                }
                let chunk = try read(depth: depth + 1)
                switch (major, chunk) {
                case (2, .bytes(let part)): joined += part
                case (3, .text(let part)): joined += Array(part.utf8)
                default: throw Malformed(description: "a chunk of another type inside an indefinite string")
                }
            }
            return major == 2 ? .bytes(joined) : .text(String(decoding: joined, as: UTF8.self))
        case 4:
            var items: [CBOR] = []
            while try !atBreak() { items.append(try read(depth: depth + 1)) }
            return .array(items)
        case 5:
            var pairs: [CBOR.Pair] = []
            while try !atBreak() {
                let key = try read(depth: depth + 1)
                pairs.append(CBOR.Pair(key: key, value: try read(depth: depth + 1)))
            }
            return .map(pairs)
        default:
            throw Malformed(description: "an indefinite length on major type \(major)")
        }
    }

    /// Whether the next byte is the break that ends an indefinite item; it is consumed if so.
    private mutating func atBreak() throws(Malformed) -> Bool {
        guard offset < bytes.count else { throw Malformed(description: "an indefinite item without its end") }
        if bytes[offset] == 0xFF {
            offset += 1
            return true
        }
        return false
    }

    private mutating func simpleOrFloat(_ additional: UInt8) throws(Malformed) -> CBOR {
        switch additional {
        case 20: return .boolean(false)
        case 21: return .boolean(true)
        case 22: return .null
        case 23: return .undefined
        case 24:
            let value = try byte()
            guard value >= 32 else { throw Malformed(description: "a two-byte simple value below 32") }
            return .simple(value)
        case 25: return .float(Double(Float16(bitPattern: UInt16(try argument(25)))))
        case 26: return .float(Double(Float(bitPattern: UInt32(try argument(26)))))
        case 27: return .float(Double(bitPattern: try argument(27)))
        case 28...30: throw Malformed(description: "a reserved simple value")
        default: return .simple(additional)
        }
    }

    private mutating func argument(_ additional: UInt8) throws(Malformed) -> UInt64 {
        switch additional {
        case 0..<24: return UInt64(additional)
        case 24: return UInt64(try byte())
        case 25: return try bigEndian(2)
        case 26: return try bigEndian(4)
        case 27: return try bigEndian(8)
        default: throw Malformed(description: "a reserved length")
        }
    }

    /// A count of items, each at least `bytesEach` long: more than the bytes left could hold is
    /// a lie, refused before anything is allocated for it.
    private func count(_ argument: UInt64, bytesEach: Int) throws(Malformed) -> Int {
        guard argument <= UInt64(bytes.count - offset) / UInt64(bytesEach) else { throw Malformed(description: "more items than bytes") }
        return Int(argument)
    }

    private mutating func bigEndian(_ length: Int) throws(Malformed) -> UInt64 {
        try take(UInt64(length)).reduce(0) { $0 << 8 | UInt64($1) }
    }

    private mutating func byte() throws(Malformed) -> UInt8 {
        guard offset < bytes.count else { throw Malformed(description: "the bytes end inside a value") }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func take(_ length: UInt64) throws(Malformed) -> ArraySlice<UInt8> {
        guard length <= UInt64(bytes.count - offset) else { throw Malformed(description: "a length past the end of the bytes") }
        defer { offset += Int(length) }
        return bytes[offset..<offset + Int(length)]
    }
}
