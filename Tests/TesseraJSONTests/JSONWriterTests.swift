import Foundation
import Testing

@testable import TesseraJSON

/// ``JSONWriter`` against Foundation's `JSONEncoder`: the bytes it writes for known values, and
/// on random values, that `JSONDecoder` reads back the same from both.
struct JSONWriterTests {
    private func text(_ value: some Encodable, _ writer: JSONWriter = JSONWriter()) throws -> String {
        try writer.string(value)
    }

    @Test func writesEachKindAsJSONEncoderWouldMeanIt() throws {
        struct Product: Encodable {
            let id: Int
            let name: String
            let price: Double
            let tags: [String]
            let note: String?
            let stock: UInt8?
        }
        let product = Product(id: -42, name: "Lamp \"Lux\"", price: 19.5, tags: ["a/b", "c"], note: nil, stock: 3)
        #expect(try text(product) == #"{"id":-42,"name":"Lamp \"Lux\"","price":19.5,"tags":["a/b","c"],"stock":3}"#)
        #expect(try text(1.0) == "1")
        #expect(try text(-0.0) == "-0")
        #expect(try text(1e21) == "1e+21")
        #expect(try text(Int64.min) == "-9223372036854775808")
        #expect(try text(UInt64.max) == "18446744073709551615")
        #expect(try text([Int]()) == "[]")
        #expect(try text(["k": [Int?.none]]) == #"{"k":[null]}"#)
        #expect(try text("\u{1}\n\t\u{1F}é") == #""\u0001\n\t\u001fé""#)
    }

    @Test func sortsKeysByTheirBytesAtEveryDepth() throws {
        let value: [String: [String: Int]] = ["b": ["z": 1, "a": 2, "m": 3], "a": [:], "B": ["y": 0]]
        #expect(try text(value, JSONWriter(sortsKeys: true)) == #"{"B":{"y":0},"a":{},"b":{"a":2,"m":3,"z":1}}"#)
    }

    @Test func scriptSafeTextCannotCloseTheScriptElement() throws {
        let json = try text(["x": "</script><!--&\u{2028}\u{2029}"], JSONWriter(isScriptSafe: true))
        #expect(json == #"{"x":"\u003c/script\u003e\u003c!--\u0026\u2028\u2029"}"#)
        #expect(!json.contains("<") && !json.contains(">") && !json.contains("&"))
    }

    @Test func datesFollowTheirEncoding() throws {
        let date = Date(timeIntervalSince1970: 1_796_556_439)
        #expect(try text(date, JSONWriter(dateEncoding: .iso8601)) == #""2026-12-06T11:27:19Z""#)
        #expect(try text(date, JSONWriter(dateEncoding: .secondsSince1970)) == "1796556439")
        let foundation = JSONEncoder()
        foundation.dateEncodingStrategy = .iso8601
        #expect(try text([date], JSONWriter(dateEncoding: .iso8601)) == String(decoding: try foundation.encode([date]), as: UTF8.self))
    }

    @Test func whatCannotBeWrittenThrowsAndLeavesTheBytesAsTheyWere() throws {
        var bytes = Array("prefix".utf8)
        #expect(throws: EncodingError.self) { try JSONWriter().write(["a": [1, Double.nan]], into: &bytes) }
        #expect(bytes == Array("prefix".utf8))
        #expect(throws: EncodingError.self) { try JSONWriter().write(Float.infinity, into: &bytes) }
        struct Nothing: Encodable {
            func encode(to encoder: any Encoder) throws {}
        }
        #expect(throws: EncodingError.self) { try JSONWriter().write(Nothing(), into: &bytes) }
        #expect(bytes == Array("prefix".utf8))
        // Nested, a value that writes nothing is an empty object, as in Foundation.
        #expect(try text([Nothing()]) == "[{}]")
    }

    @Test func aContainerLeftForALaterSiblingCannotBeWrittenAgain() throws {
        struct Backwards: Encodable {
            enum Key: CodingKey { case first, second }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                var first = container.nestedUnkeyedContainer(forKey: .first)
                try first.encode(1)
                try container.encode(2, forKey: .second)
                try first.encode(3)
            }
        }
        #expect(throws: JSONWriter.OutOfOrder.self) { try JSONWriter().bytes(Backwards()) }
    }

    /// 3,000 random values (seeded, so a failure repeats): what JSONDecoder reads back from this
    /// writer is what it reads back from Foundation's encoder.
    @Test func readsBackAsFoundationsOutputOnRandomValues() throws {
        var generator = SeededBytes(seed: 0x5EED_1234)
        for round in 0..<3_000 {
            let seed = (0..<64).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            var input = JSONSampleBytes(seed)
            let sample = JSONSample.make(from: &input)
            let ours = try JSONWriter().bytes(sample)
            let theirs = Array(try JSONEncoder().encode(sample))
            let readOurs = JSONReadBack.read(ours)
            let readTheirs = JSONReadBack.read(theirs)
            #expect(
                readOurs == readTheirs,
                "round \(round): \(String(decoding: ours, as: UTF8.self)) against \(String(decoding: theirs, as: UTF8.self))")
            if readOurs != readTheirs { return }
        }
    }

    /// A synthesized `Codable` type written by this writer decodes to the value it was.
    @Test func synthesizedCodableValuesRoundTrip() throws {
        struct Line: Codable, Equatable {
            var sku: String
            var quantity: Int16
            var price: Decimal
        }
        enum Status: Codable, Equatable {
            case open
            case shipped(carrier: String, at: Date)
        }
        struct Order: Codable, Equatable {
            var id: UInt64
            var lines: [Line]
            var totals: [String: Double]
            var status: Status
            var note: String?
            var receipt: Data
            var page: URL
            var weight: Float
        }
        let order = Order(
            id: .max, lines: [Line(sku: "A-1\u{2028}", quantity: -3, price: Decimal(string: "19.99")!)], totals: ["net": 0.1, "tax": 1e-7],
            status: .shipped(carrier: "Post \"Express\"", at: Date(timeIntervalSinceReferenceDate: 123_456.5)), note: nil,
            receipt: Data([0, 255, 7]), page: URL(string: "https://example.com/o?id=1&x=%20")!, weight: 0.3)
        for writer in [JSONWriter(), JSONWriter(sortsKeys: true, isScriptSafe: true)] {
            #expect(try JSONDecoder().decode(Order.self, from: Data(writer.bytes(order))) == order)
        }
    }
}

/// Xorshift64 (Marsaglia, 2003), for random inputs that repeat from their seed.
struct SeededBytes {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
