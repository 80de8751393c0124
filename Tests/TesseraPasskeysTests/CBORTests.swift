import Tessera
import Testing

@testable import TesseraPasskeys

/// The CBOR reader against RFC 8949's Appendix A (every example but the floats' exact NaN
/// payloads), and against bytes a client may have changed.
@Suite struct CBORTests {
    static func hex(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).map { offset in
            let start = text.index(text.startIndex, offsetBy: offset)
            return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    static let examples: [(String, CBOR)] = [
        ("00", .unsigned(0)), ("01", .unsigned(1)), ("0a", .unsigned(10)), ("17", .unsigned(23)), ("1818", .unsigned(24)),
        ("1819", .unsigned(25)), ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)), ("1a000f4240", .unsigned(1_000_000)),
        ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)), ("1bffffffffffffffff", .unsigned(.max)),
        ("c249010000000000000000", .tagged(2, CBOR.Box(.bytes(hex("010000000000000000"))))),
        ("3bffffffffffffffff", .negative(.max)),
        ("c349010000000000000000", .tagged(3, CBOR.Box(.bytes(hex("010000000000000000"))))),
        ("20", .negative(0)), ("29", .negative(9)), ("3863", .negative(99)), ("3903e7", .negative(999)),
        ("f90000", .float(0)), ("f93c00", .float(1)), ("fb3ff199999999999a", .float(1.1)), ("f93e00", .float(1.5)),
        ("f97bff", .float(65504)), ("fa47c35000", .float(100_000)), ("fa7f7fffff", .float(3.4028234663852886e+38)),
        ("fb7e37e43c8800759c", .float(1.0e+300)), ("f90001", .float(5.960464477539063e-8)), ("f90400", .float(0.00006103515625)),
        ("f9c400", .float(-4)), ("fbc010666666666666", .float(-4.1)), ("f97c00", .float(.infinity)), ("f9fc00", .float(-.infinity)),
        ("fa7f800000", .float(.infinity)), ("fbfff0000000000000", .float(-.infinity)),
        ("f4", .boolean(false)), ("f5", .boolean(true)), ("f6", .null), ("f7", .undefined), ("f0", .simple(16)), ("f8ff", .simple(255)),
        ("c074323031332d30332d32315432303a30343a30305a", .tagged(0, CBOR.Box(.text("2013-03-21T20:04:00Z")))),
        ("c11a514b67b0", .tagged(1, CBOR.Box(.unsigned(1_363_896_240)))),
        ("d74401020304", .tagged(23, CBOR.Box(.bytes([1, 2, 3, 4])))),
        ("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .tagged(32, CBOR.Box(.text("http://www.example.com")))),
        ("40", .bytes([])), ("4401020304", .bytes([1, 2, 3, 4])), ("60", .text("")), ("6161", .text("a")), ("6449455446", .text("IETF")),
        ("62225c", .text("\"\\")), ("62c3bc", .text("ü")), ("63e6b0b4", .text("水")), ("64f0908591", .text("𐅑")),
        ("80", .array([])), ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        ("8301820203820405", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
        ("98190102030405060708090a0b0c0d0e0f101112131415161718181819", .array((1...25).map { .unsigned(UInt64($0)) })),
        ("a0", .map([])), ("a201020304", .map([.init(key: .unsigned(1), value: .unsigned(2)), .init(key: .unsigned(3), value: .unsigned(4))])),
        (
            "a26161016162820203",
            .map([.init(key: .text("a"), value: .unsigned(1)), .init(key: .text("b"), value: .array([.unsigned(2), .unsigned(3)]))])
        ),
        ("826161a161626163", .array([.text("a"), .map([.init(key: .text("b"), value: .text("c"))])])),
        ("5f42010243030405ff", .bytes([1, 2, 3, 4, 5])), ("7f657374726561646d696e67ff", .text("streaming")), ("9fff", .array([])),
        ("9f018202039f0405ffff", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
        ("83019f0203ff820405", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
        ("9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", .array((1...25).map { .unsigned(UInt64($0)) })),
        (
            "bf61610161629f0203ffff",
            .map([.init(key: .text("a"), value: .unsigned(1)), .init(key: .text("b"), value: .array([.unsigned(2), .unsigned(3)]))])
        ),
        ("bf6346756ef563416d7421ff", .map([.init(key: .text("Fun"), value: .boolean(true)), .init(key: .text("Amt"), value: .negative(1))])),
    ]

    @Test func rfc8949AppendixA() throws {
        for (encoded, expected) in Self.examples {
            #expect(try CBORReader.decode(Self.hex(encoded)) == expected, "\(encoded)")
        }
        #expect(try CBORReader.decode(Self.hex("3bffffffffffffffff")).int == nil, "-2^64 fits no Int")
        #expect(try CBORReader.decode(Self.hex("3903e7")).int == -1000)
        guard case .float(let negativeZero) = try CBORReader.decode(Self.hex("f98000")) else {
            Issue.record("not a float")
            return
        }
        #expect(negativeZero == 0 && negativeZero.sign == .minus)
        for nan in ["f97e00", "fa7fc00000", "fb7ff8000000000000"] {
            guard case .float(let value) = try CBORReader.decode(Self.hex(nan)) else {
                Issue.record("not a float")
                continue
            }
            #expect(value.isNaN)
        }
    }

    @Test func bytesAClientChangedAreMalformedNotACrash() {
        for bad in [
            "", "18", "1a0000", "44010203", "62c3", "9f01", "bf6161", "83010203ff",  // cut short
            "f818", "1c", "5f01ff", "7f4101ff", "ff",  // reserved, wrong chunks, a stray break
            "62c328",  // not UTF-8
            "9bffffffffffffffff", "bbffffffffffffffff",  // more items than bytes
            String(repeating: "81", count: 40) + "00",  // nested too deep
            "0000",  // a second value
        ] {
            #expect(throws: CBORReader.Malformed.self, "\(bad)") { try CBORReader.decode(Self.hex(bad)) }
        }
    }
}
