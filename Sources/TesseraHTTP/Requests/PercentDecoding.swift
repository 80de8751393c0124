/// Percent-decoding of URL components, done on bytes so that nothing is lost or guessed.
///
/// Decoding is strict: a malformed escape or bytes that are not UTF-8 are errors, because
/// a lenient decoder is where path-traversal and cache-poisoning tricks hide.
enum PercentDecoding {
    enum Failure: Error, Equatable {
        case malformedEscape
        case invalidUTF8
    }

    /// Decodes `%XX` escapes; with `plusIsSpace`, `+` becomes a space (form and query encoding).
    static func decode<Bytes: Collection<UInt8>>(_ encoded: Bytes, plusIsSpace: Bool) throws(Failure) -> String {
        var needsWork = false
        for byte in encoded where byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+")) {
            needsWork = true
            break
        }
        if !needsWork {
            guard let string = String(validating: encoded, as: UTF8.self) else { throw .invalidUTF8 }
            return string
        }
        var decoded = [UInt8]()
        decoded.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index != encoded.endIndex {
            let byte = encoded[index]
            if byte == UInt8(ascii: "%") {
                let high = encoded.index(after: index)
                guard high != encoded.endIndex else { throw .malformedEscape }
                let low = encoded.index(after: high)
                guard low != encoded.endIndex,
                    let h = hexValue(encoded[high]), let l = hexValue(encoded[low])
                else { throw .malformedEscape }
                decoded.append(h << 4 | l)
                index = encoded.index(after: low)
            } else {
                decoded.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index = encoded.index(after: index)
            }
        }
        guard let string = String(validating: decoded, as: UTF8.self) else { throw .invalidUTF8 }
        return string
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
