import Foundation

/// A random `Encodable` value for comparing ``JSONWriter`` with Foundation's `JSONEncoder`, built
/// from a stream of bytes: the property test feeds it a seeded generator's bytes, the `JSON` fuzz
/// target libFuzzer's. It reaches every kind of container (nested, `superEncoder`, single-value
/// wrappers), optionals present and absent, every escape, and floats at their edges.
indirect enum JSONSample: Encodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case small(Int8, UInt16)
    case double(Double)
    case float(Float)
    case string(String)
    case date(Date)
    case data(Data)
    case url(URL)
    case array([JSONSample])
    case object([(String, JSONSample)])
    /// An object with an optional member, present or not, written with `encodeIfPresent`.
    case optional(String, JSONSample?)
    /// A member written through `nestedContainer(keyedBy:forKey:)` and one through
    /// `nestedUnkeyedContainer(forKey:)`, then a member of the outer object after them.
    case nested(JSONSample, [JSONSample], JSONSample)
    /// A class-style encoding: the superclass's fields under `super`, then the subclass's.
    case inherited(JSONSample, JSONSample)
    /// A wrapper that writes its inner value through a single value container.
    case wrapper(JSONSample)

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value): try value.encode(to: encoder)
        case .integer(let value): try value.encode(to: encoder)
        case .unsigned(let value): try value.encode(to: encoder)
        case .small(let signed, let unsigned):
            var container = encoder.unkeyedContainer()
            try container.encode(signed)
            try container.encode(unsigned)
        case .double(let value): try value.encode(to: encoder)
        case .float(let value): try value.encode(to: encoder)
        case .string(let value): try value.encode(to: encoder)
        case .date(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .data(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .url(let value):
            var container = encoder.unkeyedContainer()
            try container.encode(value)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let members):
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in members { try container.encode(value, forKey: Key(key)) }
        case .optional(let name, let value):
            var container = encoder.container(keyedBy: Key.self)
            try container.encodeIfPresent(value, forKey: Key(name))
            try container.encode(true, forKey: Key("after"))
        case .nested(let inner, let elements, let last):
            var container = encoder.container(keyedBy: Key.self)
            var object = container.nestedContainer(keyedBy: Key.self, forKey: Key("object"))
            try object.encode(inner, forKey: Key("inner"))
            var array = container.nestedUnkeyedContainer(forKey: Key("array"))
            for element in elements { try array.encode(element) }
            var nestedArray = array.nestedUnkeyedContainer()
            try nestedArray.encode(1.5)
            try container.encode(last, forKey: Key("last"))
        case .inherited(let base, let own):
            var container = encoder.container(keyedBy: Key.self)
            try base.encode(to: container.superEncoder())
            try container.encode(own, forKey: Key("own"))
            // A subclass and its superclass may each ask the same encoder for the object.
            var again = encoder.container(keyedBy: Key.self)
            try again.encode("yes", forKey: Key("again"))
        case .wrapper(let inner):
            var container = encoder.singleValueContainer()
            try container.encode(inner)
        }
    }

    /// Builds a sample from `bytes`, reading as it needs; past the end, every read is zero.
    static func make(from bytes: inout JSONSampleBytes, depth: Int = 0) -> JSONSample {
        let kinds = depth > 4 ? 11 : 19
        switch Int(bytes.next()) % kinds {
        case 0: return .null
        case 1: return .bool(bytes.next() & 1 == 1)
        case 2: return .integer(Int64(bitPattern: bytes.next64()))
        case 3: return .unsigned(bytes.next64())
        case 4: return .small(Int8(bitPattern: bytes.next()), UInt16(bytes.next()) << 8 | UInt16(bytes.next()))
        case 5: return .double(edgeDouble(&bytes))
        case 6: return .float(edgeFloat(&bytes))
        case 7: return .string(string(&bytes))
        case 8: return .date(Date(timeIntervalSince1970: Double(Int32(bitPattern: UInt32(truncatingIfNeeded: bytes.next64())))))
        case 9: return .data(Data((0..<Int(bytes.next() % 9)).map { _ in bytes.next() }))
        case 10: return .url(URL(string: "https://example.com/\(bytes.next())?q=a%20b&x=%3Cy%3E&s=/")!)
        case 11: return .array((0..<Int(bytes.next() % 4)).map { _ in make(from: &bytes, depth: depth + 1) })
        case 12, 13:
            // Distinct keys, as a keyed container's are.
            var seen: Set<String> = []
            var members: [(String, JSONSample)] = []
            for _ in 0..<Int(bytes.next() % 4) {
                let key = string(&bytes)
                if seen.insert(key).inserted { members.append((key, make(from: &bytes, depth: depth + 1))) }
            }
            return .object(members)
        case 14: return .optional(string(&bytes), bytes.next() & 1 == 1 ? make(from: &bytes, depth: depth + 1) : nil)
        case 15:
            return .nested(
                make(from: &bytes, depth: depth + 1), (0..<Int(bytes.next() % 3)).map { _ in make(from: &bytes, depth: depth + 1) },
                make(from: &bytes, depth: depth + 1))
        case 16:
            // The superclass's part is an object, as a class's fields are.
            let base: JSONSample = .object([("base", make(from: &bytes, depth: depth + 1))])
            return .inherited(base, make(from: &bytes, depth: depth + 1))
        default: return .wrapper(make(from: &bytes, depth: depth + 1))
        }
    }

    /// A double, half the time one of the values encoders get wrong.
    static func edgeDouble(_ bytes: inout JSONSampleBytes) -> Double {
        let edges: [Double] = [
            0, -0.0, 1, -1, 0.1, 1e-7, 1e16, 1e21, 123456789012345680, 9007199254740992, 9007199254740994, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude, .ulpOfOne, Double.leastNonzeroMagnitude.nextUp, 2.5e-8, 1.0 / 3,
        ]
        let pick = Int(bytes.next())
        if pick < 128 { return edges[pick % edges.count] }
        let value = Double(bitPattern: bytes.next64())
        return value.isFinite ? value : 0
    }

    static func edgeFloat(_ bytes: inout JSONSampleBytes) -> Float {
        let edges: [Float] = [0, -0.0, 0.1, 1e-7, 16_777_216, 16_777_218, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 3.4e38, 1.0 / 3]
        let pick = Int(bytes.next())
        if pick < 128 { return edges[pick % edges.count] }
        let value = Float(bitPattern: UInt32(truncatingIfNeeded: bytes.next64()))
        return value.isFinite ? value : 0
    }

    /// Text that mixes plain letters with every character JSON or `<script>` escapes, and
    /// scalars of every UTF-8 length.
    static func string(_ bytes: inout JSONSampleBytes) -> String {
        let pieces = [
            "a", "Zürich", "\"", "\\", "/", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{01}", "\u{1F}", "\u{7F}", "<", ">", "&",
            "\u{2028}", "\u{2029}", "é", "€", "😀", "</script>", "\u{0}", " ", "\u{FFFF}", "e\u{301}",
        ]
        return (0..<Int(bytes.next() % 6)).map { _ in pieces[Int(bytes.next()) % pieces.count] }.joined()
    }
}

/// The bytes a sample is built from.
struct JSONSampleBytes {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }

    mutating func next64() -> UInt64 {
        (0..<8).reduce(0) { value, _ in value << 8 | UInt64(next()) }
    }
}

/// What `JSONDecoder` reads back from some JSON, as plain values to compare.
enum JSONReadBack: Decodable, Equatable {
    case null
    case bool(Bool)
    /// A number as a double, and exactly if it is an integer that fits 64 bits.
    case number(Double, exact: String?)
    case string(String)
    case array([JSONReadBack])
    case object([String: JSONReadBack])
    /// JSON that did not parse, with why: equal to nothing, itself included.
    case unreadable(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            let exact = (try? container.decode(Int64.self)).map(String.init) ?? (try? container.decode(UInt64.self)).map(String.init)
            self = .number(value, exact: exact)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONReadBack].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONReadBack].self))
        }
    }

    static func == (left: JSONReadBack, right: JSONReadBack) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        // The same double; and the same integer where both read one (an integer written with
        // an exponent reads back as a double only).
        case (.number(let a, let exactA), .number(let b, let exactB)): return a == b && (exactA == nil || exactB == nil || exactA == exactB)
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    /// Reads `json` back, or says why it could not.
    static func read(_ json: [UInt8]) -> JSONReadBack {
        do {
            return try JSONDecoder().decode(JSONReadBack.self, from: Data(json))
        } catch {
            return .unreadable("\(error)")
        }
    }
}
